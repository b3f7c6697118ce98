// A layout mode of extent 0 is not a layout.
use tessera::obligation::static_check::StaticLayout1;

const EMPTY: StaticLayout1<0, 1> = StaticLayout1::new();

fn main() {
    let _ = EMPTY.layout();
}
