//! Corrupting a valid input, for the property tests that a problem's parser and validator
//! never panic: a test draws the edits, this applies them the same way for every problem.

/// Applies `edits` to `bytes` in order. Each edit is `(at, how, byte)`; `at` is taken modulo
/// the length plus one, and `how % 7` chooses: insert `byte`; remove a byte; overwrite a byte
/// with `byte`; insert a digit, a space, a newline or a minus sign; truncate; overwrite a
/// byte with a digit; insert `token` (a number that is in range somewhere, so the corrupted
/// file often stays well formed and reaches the validator's rules). `O(len)` an edit.
#[must_use]
pub fn corrupt(mut bytes: Vec<u8>, edits: &[(usize, u8, u8)], token: &[u8]) -> Vec<u8> {
    const TOKEN_BYTES: &[u8; 13] = b"0123456789 \n-";
    for &(at, how, byte) in edits {
        let at = at % (bytes.len() + 1);
        let inside = at < bytes.len();
        match how % 7 {
            0 => bytes.insert(at, byte),
            1 if inside => {
                bytes.remove(at);
            }
            2 if inside => bytes[at] = byte,
            3 => bytes.insert(at, TOKEN_BYTES[usize::from(byte) % TOKEN_BYTES.len()]),
            4 => bytes.truncate(at),
            5 if inside => bytes[at] = b'0' + byte % 10,
            6 => {
                let tail = bytes.split_off(at);
                bytes.extend_from_slice(token);
                bytes.extend(tail);
            }
            // Removing or overwriting past the end leaves the input as it is.
            _ => {}
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_edit_does_what_it_says() {
        let base = b"12 34".to_vec();
        assert_eq!(corrupt(base.clone(), &[(0, 0, b'x')], b" 9"), b"x12 34");
        assert_eq!(corrupt(base.clone(), &[(1, 1, 0)], b" 9"), b"1 34");
        assert_eq!(corrupt(base.clone(), &[(1, 2, b'y')], b" 9"), b"1y 34");
        assert_eq!(corrupt(base.clone(), &[(2, 3, 12)], b" 9"), b"12- 34");
        assert_eq!(corrupt(base.clone(), &[(3, 4, 0)], b" 9"), b"12 ");
        assert_eq!(corrupt(base.clone(), &[(0, 5, 7)], b" 9"), b"72 34");
        assert_eq!(corrupt(base.clone(), &[(2, 6, 0)], b" 9"), b"12 9 34");
        assert_eq!(corrupt(base, &[(5, 1, 0), (11, 2, 0)], b" 9"), b"12 34", "past the end");
    }
}
