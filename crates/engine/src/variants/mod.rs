//! Rule families, one file each. Each module's docs hold the decisions of
//! `docs/rules/<family>.md` and the choices made where the spec is silent.

pub mod beijing;
pub mod guangdong;
pub mod guobiao;
pub mod ningbo;
pub(crate) mod rotation;
pub mod shanghai;
pub mod sichuan;
pub mod suzhou;
#[cfg(test)]
pub(crate) mod testing;
pub mod two_player;
pub mod wuhu;
