// The valid tiling compiles: (128, 16, 2):(16, 1, 2048) tiles [0, 4096).
use tessera::obligation::static_check::Complement1;

const TILE: Complement1<128, 16, 4096> = Complement1::new();

fn main() {
    assert_eq!(TILE.tiled().to_string(), "(128,16,2):(16,1,2048)");
}
