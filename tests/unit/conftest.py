from __future__ import annotations

import warnings

# xDSL 0.74 warns about its own deprecated re-exports on import.
warnings.filterwarnings("ignore", category=DeprecationWarning, module="xdsl")
