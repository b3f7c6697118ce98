// A 96-element tile does not divide a 4096-element row.
use tessera::obligation::{static_check::StaticDivides, Divides};

const TILE: Divides = StaticDivides::<96, 4096>::PROOF;

fn main() {
    let _ = TILE.quotient();
}
