"""Building blocks every pass uses, one concept per module:

- `mixed_sizes`: sizes and offsets that are static integers or SSA values;
- `shape_reification`: the extent of a tensor dimension as such a value;
- `slices`: building tensor.extract_slice / insert_slice from mixed values;
- `dps`: facts about destination-passing structured ops and their clones;
- `affine_maps`: affine-map algebra beyond xDSL's;
- `reassociation`: reshape reassociations and building expand/collapse_shape;
- `ordering`: where ops stand relative to each other in a block;
- `generalize`: a named structured op as the equivalent `linalg.generic`.

Passes import these; they do not import each other's internals.
"""
