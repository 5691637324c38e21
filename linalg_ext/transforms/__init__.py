"""Building blocks every pass uses, one concept per module:

- `mixed_sizes`: arithmetic on sizes and offsets that are static integers
  or SSA values (splitting and joining them is xDSL's);
- `shape_reification`: the extent of a tensor dimension as such a value;
- `slices`: building tensor.extract_slice / insert_slice from mixed values,
  or the slice an insertion writes;
- `dps`: facts about destination-passing structured ops and their clones,
  and which operand a result updates in place (its buffer once bufferized);
- `affine_maps`: affine-map queries xDSL's `AffineMap` lacks;
- `reassociation`: reshape reassociations and building expand/collapse_shape;
- `ordering`: where ops stand relative to each other (dominance), and
  moving pure definitions up to where they are needed;
- `generalize`: a named structured op as the equivalent `linalg.generic`.

Passes import these; they do not import each other's internals.
"""
