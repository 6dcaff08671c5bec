import sys

from host_device.cli.main import main

sys.exit(main())
