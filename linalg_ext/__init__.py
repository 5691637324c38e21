"""xdsl-linalg-ext: ByteIR-style Linalg extensions for xDSL.

`linalg_ext.dialect.LinalgExt` is the `linalg_ext` dialect; the `passes`
package holds the transformations. Both are registered with the stock
`xdsl-opt` through the `xdsl.universe` entry point
(`linalg_ext.tools.xdsl_plugin`, on the library's `linalg_ext.universe`).
"""

__version__ = "0.1.0"
