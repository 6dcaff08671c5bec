import sys

from host_device.cli import main

sys.exit(main())
