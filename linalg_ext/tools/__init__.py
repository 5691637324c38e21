"""Command-line tools: `linalg-ext-opt` (the driver), `linalg-ext-run` and
`linalg-ext-check`."""
