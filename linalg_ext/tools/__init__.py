"""Command-line tools: `linalg-ext-run` and `linalg-ext-check`."""
