//! Rendering answers and strategies as text, byte by byte (millions of numbers go through
//! here, so no `format!` per number).

/// Appends the answer line `w[0] w[1] … w[n-1]` and a newline. `O(n)`.
pub(crate) fn push_answer_line(out: &mut Vec<u8>, arezou_wins: &[bool]) {
    out.reserve(2 * arezou_wins.len() + 1);
    for (i, &w) in arezou_wins.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.push(if w { b'1' } else { b'0' });
    }
    out.push(b'\n');
}

/// Appends one line `s t` per station `s`: the switch at `s` is set along the track `s -> t`.
/// `O(n)`.
pub(crate) fn push_strategy_lines(out: &mut Vec<u8>, strategy: &[u32]) {
    out.reserve(strategy.len() * 12);
    for (s, &t) in strategy.iter().enumerate() {
        push_uint(out, s as u64);
        out.push(b' ');
        push_uint(out, u64::from(t));
        out.push(b'\n');
    }
}

/// Appends `x` in decimal.
#[inline]
pub(crate) fn push_uint(out: &mut Vec<u8>, mut x: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_lines() {
        let mut out = Vec::new();
        push_answer_line(&mut out, &[true, false, true]);
        push_strategy_lines(&mut out, &[0, 12_345, 1]);
        push_uint(&mut out, u64::MAX);
        assert_eq!(out, b"1 0 1\n0 0\n1 12345\n2 1\n18446744073709551615");
    }
}
