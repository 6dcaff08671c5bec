"""What the table and the host see: step titles, the narration, the host's
terminal screen, the public stream's snapshot and the per-seat private
views.
"""
