// N·d must fit in 64 bits before it can divide anything.
use tessera::obligation::static_check::Complement1;

const HUGE: Complement1<4611686018427387904, 4, 16> = Complement1::new();

fn main() {
    let _ = HUGE.complement();
}
