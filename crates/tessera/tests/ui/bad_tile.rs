// The Complementation theorem: `def badTile : Layout := complement1 128 16 2040 ?proof` must not compile.
use tessera::obligation::static_check::Complement1;

const BAD_TILE: Complement1<128, 16, 2040> = Complement1::new();

fn main() {
    let _ = BAD_TILE.tiled();
}
