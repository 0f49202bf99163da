//! Canadian postal codes down to their forward sortation area (FSA): "t2p 1j9" -> "T2P".

/// Canada Post never starts a code with D, F, I, O, Q, U, W or Z.
const FIRST_LETTERS: &str = "ABCEGHJKLMNPRSTVXY";
/// Nor uses D, F, I, O, Q or U in the other letter positions.
const OTHER_LETTERS: &str = "ABCEGHJKLMNPRSTVWXYZ";

/// The FSA of a whole code ("T2P 1J9", "t2p1j9") or of an FSA alone ("T2P"); `None` when the
/// text does not have the Canadian shape A1A 1A1.
pub fn forward_sortation_area(code: &str) -> Option<String> {
    let compact: Vec<char> = code
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if compact.len() != 3 && compact.len() != 6 {
        return None;
    }
    let fits = compact
        .iter()
        .enumerate()
        .all(|(position, &c)| match position {
            0 => FIRST_LETTERS.contains(c),
            2 | 4 => OTHER_LETTERS.contains(c),
            _ => c.is_ascii_digit(),
        });
    fits.then(|| compact[..3].iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_normalised_to_their_area() {
        assert_eq!(forward_sortation_area("t2p 1j9").as_deref(), Some("T2P"));
        assert_eq!(forward_sortation_area(" H2X1Y4 ").as_deref(), Some("H2X"));
        assert_eq!(forward_sortation_area("x0a").as_deref(), Some("X0A"));
    }

    #[test]
    fn other_shapes_and_letters_are_refused() {
        for code in [
            "D1A",
            "12345",
            "T2P 1J",
            "T2P 1J9 0",
            "W1A 1AA",
            "T2O",
            "T2P 1O9",
            "",
            "2TP",
        ] {
            assert_eq!(forward_sortation_area(code), None, "{code:?}");
        }
    }
}
