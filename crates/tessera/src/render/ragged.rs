//! The padded tile grid of a ragged divide, holes marked: the iteration-space picture
//! ([`super::space_svg`]) of [`crate::domain::ragged::padded_schedule`].

use super::{space_svg, Error, Picture, Result};
use crate::algebra::ragged::Ragged;

/// Draws the padded domain of a ragged divide of a rank-1 or rank-2 layout: rows are mode 0's
/// padded coordinate, columns mode 1's; a valid cell shows the user coordinates it reaches and is
/// coloured by A's index, a hole is [`super::HOLE`].
///
/// Pre: rank(A) ≤ 2; at most [`super::MAX_CELLS`] padded points. Post: one mark per padded
/// point, `r.holes` of them holes.
///
/// ```
/// use tessera::{Layout, algebra::{Tiler, ragged::{ragged_divide, Arrangement}}};
/// let a: Layout = "(10,12):(12,1)".parse().unwrap();
/// let r = ragged_divide(&a, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)]), Arrangement::Zipped).unwrap();
/// let p = tessera::render::ragged::grid_svg(&r).unwrap();
/// assert_eq!(p.marks.iter().filter(|m| m.fill == tessera::render::HOLE).count(), 72);
/// ```
pub fn grid_svg(r: &Ragged) -> Result<Picture> {
    if r.original.rank() > 2 {
        return Err(Error::BadInput {
            what: "ragged grid",
            detail: format!(
                "{} has rank {}: the grid picture draws rank 1 or 2",
                r.original,
                r.original.rank()
            ),
        });
    }
    let s = crate::domain::ragged::padded_schedule(r, None)?;
    space_svg(&s)
}
