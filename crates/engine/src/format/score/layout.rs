//! The layout of an object read field by field (a score line, a meld), expected again for the
//! next one.
//!
//! Lines written by one program lay their fields out alike: the golden file's lines all read
//! `{"id": …, "concealed": "…", "melds": […], …, "fans": […], "total": …}`, and their melds
//! `{"kind": "…", "tiles": "…", "concealed": …}`. A layout is such an object's bytes with every
//! value left open: the bytes between values (braces, keys, colons, commas, spacing) are
//! compared eight at a time, and each value is read by its field's own reader. An object that
//! matches has the same keys in the same order as the one the layout was taken from, which the
//! reader took in full, so it reads alike; one that does not is read field by field, and its
//! layout replaces the old one.

use super::skip::past_same;

/// The layout of the last object read field by field, its fields named by `F`.
pub(super) struct Layout<F> {
    /// The bytes between values, copied from that line.
    bytes: Vec<u8>,
    /// The pieces in turn.
    pieces: Vec<Piece<F>>,
    /// Whether there is a layout (none yet, or the last object was not read).
    ready: bool,
}

impl<F> Default for Layout<F> {
    fn default() -> Self {
        Layout {
            bytes: Vec::new(),
            pieces: Vec::new(),
            ready: false,
        }
    }
}

/// A piece of a [`Layout`].
#[derive(Clone, Copy)]
enum Piece<F> {
    /// The next this many bytes between values, exactly.
    Bytes(usize),
    /// The value of a field.
    Value(F),
}

impl<F: Copy> Layout<F> {
    /// Past the object at `i` if it is laid out like the last one, `value` reading the value of
    /// each field (given where it starts, giving where it ends); `None` if not (`value` may
    /// then have read some of its fields).
    pub(super) fn past(
        &self,
        b: &[u8],
        mut i: usize,
        mut value: impl FnMut(usize, F) -> Option<usize>,
    ) -> Option<usize> {
        if !self.ready {
            return None;
        }
        let mut fixed = 0;
        for &piece in &self.pieces {
            match piece {
                Piece::Bytes(n) => {
                    i = past_same(b, i, self.bytes.get(fixed..fixed + n)?)?;
                    fixed += n;
                }
                Piece::Value(field) => i = value(i, field)?,
            }
        }
        Some(i)
    }

    /// Forgets the layout and starts taking down that of the object at `start`.
    pub(super) fn take(&mut self, start: usize) -> Taking<'_, F> {
        self.bytes.clear();
        self.pieces.clear();
        self.ready = false;
        Taking {
            layout: self,
            fixed: start,
            broken: false,
        }
    }
}

/// A [`Layout`] being taken down from the object being read.
pub(super) struct Taking<'l, F> {
    layout: &'l mut Layout<F>,
    /// Where the bytes since the last value start.
    fixed: usize,
    /// Whether a value started before the last one ended (which the reader never does).
    broken: bool,
}

impl<F> Taking<'_, F> {
    /// The value of `field` starts at `i`.
    pub(super) fn field(&mut self, b: &[u8], i: usize, field: F) {
        let Some(fixed) = b.get(self.fixed..i) else {
            self.broken = true;
            return;
        };
        let layout = &mut *self.layout;
        layout.bytes.extend_from_slice(fixed);
        layout
            .pieces
            .extend([Piece::Bytes(fixed.len()), Piece::Value(field)]);
    }

    /// The value just read ends before `end`.
    pub(super) fn value_ends(&mut self, end: usize) {
        self.fixed = end;
    }

    /// The object, read in full, ends before `end`: the layout is ready.
    pub(super) fn ends(self, b: &[u8], end: usize) {
        if let Some(last) = b.get(self.fixed..end) {
            self.layout.bytes.extend_from_slice(last);
            self.layout.pieces.push(Piece::Bytes(last.len()));
            self.layout.ready = !self.broken;
        }
    }
}
