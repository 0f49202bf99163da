//! Contact details in what people write to each other before a hire: North American phone
//! numbers and email addresses, found in a message's text and replaced for its reader
//! ([`mask_contacts`]). A pure function of the text: whoever may read what is decided by the
//! conversations' rules, this only finds and replaces.
//!
//! Found: ten digits (or eleven after a `1` or `+1`) in groups separated by spaces, dashes,
//! dots, slashes or parentheses ("(403) 555-0100", "+1 403.555.0100", "4 0 3 5 5 5 0 1 0 0"),
//! seven digits shaped as a local number ("555-0100"); addresses with `@` (spaces around it
//! too), and the usual disguises: "name at gmail dot com", "name (at) gmail (dot) com",
//! "nom arobase videotron point ca". Ordinary numbers (prices, dates, a postal code, an
//! address's civic number) are left alone.

/// What replaces each kind of contact detail, in the reader's language.
#[derive(Debug, Clone, Copy)]
pub struct Placeholders<'a> {
    pub phone: &'a str,
    pub email: &'a str,
}

/// A text as its reader may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Masked {
    pub text: String,
    /// Whether anything was replaced.
    pub masked: bool,
}

/// `text` with every phone number and email address found replaced by its placeholder.
pub fn mask_contacts(text: &str, placeholders: &Placeholders<'_>) -> Masked {
    let chars: Vec<char> = text.chars().collect();
    let mut found: Vec<(usize, usize, Kind)> = emails(&chars)
        .into_iter()
        .map(|(start, end)| (start, end, Kind::Email))
        .collect();
    for (start, end) in phones(&chars) {
        if !found.iter().any(|&(s, e, _)| start < e && s < end) {
            found.push((start, end, Kind::Phone));
        }
    }
    if found.is_empty() {
        return Masked {
            text: text.to_owned(),
            masked: false,
        };
    }
    found.sort_unstable_by_key(|&(start, ..)| start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, kind) in found {
        out.extend(&chars[at..start]);
        out.push_str(match kind {
            Kind::Phone => placeholders.phone,
            Kind::Email => placeholders.email,
        });
        at = end;
    }
    out.extend(&chars[at..]);
    Masked {
        text: out,
        masked: true,
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Phone,
    Email,
}

/// Characters that may stand between the digit groups of a phone number.
fn is_phone_separator(c: char) -> bool {
    matches!(
        c,
        ' ' | '-' | '.' | '(' | ')' | '/' | '_' | '\u{a0}' | '\u{2010}'..='\u{2015}'
    )
}

/// At most this many separators in a row between two groups of one number.
const MAX_SEPARATORS: usize = 3;

/// The spans (char positions, end excluded) of the phone numbers in `chars`.
fn phones(chars: &[char]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_here = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '@'));
        if !starts_here {
            i += 1;
            continue;
        }
        let (groups, end) = digit_groups(chars, i);
        found.extend(numbers_in(chars, &groups));
        i = end.max(i + 1);
    }
    found
}

/// The groups of digits from `start` (each its start and end), separated by short runs of
/// separators, and where the run of them ends.
fn digit_groups(chars: &[char], start: usize) -> (Vec<(usize, usize)>, usize) {
    let mut groups = Vec::new();
    let mut i = start;
    loop {
        let group_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        groups.push((group_start, i));
        let mut j = i;
        while j < chars.len() && j - i < MAX_SEPARATORS && is_phone_separator(chars[j]) {
            j += 1;
        }
        if j == i || j >= chars.len() || !chars[j].is_ascii_digit() {
            return (groups, i);
        }
        i = j;
    }
}

/// The phone numbers among consecutive `groups`, each as long as it can be. Each span
/// takes a `+` or `(` just before it.
fn numbers_in(chars: &[char], groups: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut g = 0;
    while g < groups.len() {
        let Some(taken) = phone_at(chars, &groups[g..]) else {
            g += 1;
            continue;
        };
        let mut start = groups[g].0;
        while start > 0 && matches!(chars[start - 1], '+' | '(') {
            start -= 1;
        }
        found.push((start, groups[g + taken - 1].1));
        g += taken;
    }
    found
}

/// How many of `groups`, from the first, make one phone number, if some do.
fn phone_at(chars: &[char], groups: &[(usize, usize)]) -> Option<usize> {
    let sizes: Vec<usize> = groups.iter().map(|(start, end)| end - start).collect();
    let leading_one = chars[groups[0].0] == '1';
    (1..=sizes.len().min(11))
        .rev()
        .find(|&take| is_phone_shape(&sizes[..take], leading_one))
}

/// Whether digit groups of these sizes are written as a phone number: ten digits as
/// 10, 3-7, 6-4 or 3-3-4 (or in ones and twos, spelled out to slip past a filter), the same
/// after a country code 1, or a local number 3-4. Other ten-digit runs ("28 1234 5678") are
/// taken for what they are more likely to be: references, dates, amounts.
fn is_phone_shape(sizes: &[usize], leading_one: bool) -> bool {
    let total: usize = sizes.iter().sum();
    let national = match (total, sizes) {
        (7, _) => return sizes == [3, 4],
        (10, _) => sizes,
        (11, [11]) => return leading_one,
        (11, [1, rest @ ..]) if leading_one => rest,
        _ => return false,
    };
    national.iter().all(|&n| n <= 2) || matches!(national, [10] | [3, 7] | [6, 4] | [3, 3, 4])
}

/// The spans of the email addresses in `chars`, written plainly or disguised.
fn emails(chars: &[char]) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some((marker_end, plain)) = at_marker(chars, i) else {
            i += 1;
            continue;
        };
        let address = local_part(chars, i)
            .and_then(|start| domain(chars, marker_end, plain).map(|end| (start, end)));
        match address {
            Some((start, end)) if found.last().is_none_or(|&(_, last)| last <= start) => {
                found.push((start, end));
                i = end;
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether an "at" starts at `i` ("@", "(at)", " at ", "arobase"): where it ends, and
/// whether it was the plain `@` (any domain then counts; a disguised one needs a known
/// ending, so that "meet at home" is left alone).
fn at_marker(chars: &[char], i: usize) -> Option<(usize, bool)> {
    if matches!(chars[i], '@' | '\u{ff20}') {
        return Some((i + 1, true));
    }
    ["at", "arobase"]
        .into_iter()
        .find_map(|word| marked_word(chars, i, word))
        .map(|end| (end, false))
}

/// Where `word` ends when it is written at `i` as a word of its own (spaces around it) or in
/// brackets ("(at)", "[dot]").
fn marked_word(chars: &[char], i: usize, word: &str) -> Option<usize> {
    let (open, close) = match *chars.get(i)? {
        '(' => (Some('('), ')'),
        '[' => (Some('['), ']'),
        '{' => (Some('{'), '}'),
        '<' => (Some('<'), '>'),
        _ => (None, ' '),
    };
    let from = i + usize::from(open.is_some());
    let len = word.chars().count();
    let candidate = chars.get(from..from + len)?;
    let same = candidate
        .iter()
        .zip(word.chars())
        .all(|(c, w)| c.to_lowercase().eq(std::iter::once(w)));
    if !same {
        return None;
    }
    let after = from + len;
    match open {
        Some(_) => (chars.get(after) == Some(&close)).then_some(after + 1),
        // A bare word needs a space before and after it.
        None => {
            let spaced_before = i > 0 && chars[i - 1].is_whitespace();
            let spaced_after = chars.get(after).is_some_and(|c| c.is_whitespace());
            (spaced_before && spaced_after).then_some(after)
        }
    }
}

fn is_local_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-' | '\'')
}

/// Where the local part before the at-marker at `marker` starts (spaces between them
/// allowed).
fn local_part(chars: &[char], marker: usize) -> Option<usize> {
    let mut end = marker;
    while end > 0 && chars[end - 1].is_whitespace() && marker - end < 2 {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && is_local_char(chars[start - 1]) {
        start -= 1;
    }
    while start < end && matches!(chars[start], '.' | '-' | '\'') {
        start += 1;
    }
    (start < end && chars[start..end].iter().any(|c| c.is_alphanumeric())).then_some(start)
}

/// Endings a disguised address must have to count.
const KNOWN_ENDINGS: &[&str] = &[
    "com", "ca", "net", "org", "fr", "info", "biz", "io", "me", "co", "us", "qc", "quebec",
];

/// Where the domain after the at-marker ending at `from` ends: two labels or more joined by
/// dots, written "." or disguised (" dot ", "(dot)", " point "), the last one letters.
fn domain(chars: &[char], from: usize, plain: bool) -> Option<usize> {
    let mut i = skip_spaces(chars, from, 2);
    let mut labels: Vec<(usize, usize)> = Vec::new();
    loop {
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '-') {
            i += 1;
        }
        if i == start {
            break;
        }
        labels.push((start, i));
        match dot_after(chars, i) {
            Some(next) if next < chars.len() && chars[next].is_alphanumeric() => i = next,
            _ => break,
        }
    }
    let &(last_start, last_end) = labels.last()?;
    let ending: String = chars[last_start..last_end].iter().collect::<String>();
    let ending = ending.to_lowercase();
    let letters =
        (2..=10).contains(&ending.chars().count()) && ending.chars().all(char::is_alphabetic);
    let known = KNOWN_ENDINGS.contains(&ending.as_str());
    (labels.len() >= 2 && letters && (plain || known)).then_some(last_end)
}

/// Where the label after a dot starts, when a dot (plain or disguised) follows `i`.
fn dot_after(chars: &[char], i: usize) -> Option<usize> {
    // A plain dot joins labels directly: one followed by a space ends a sentence.
    if chars.get(i) == Some(&'.') {
        return Some(i + 1);
    }
    let spaced = skip_spaces(chars, i, 2);
    ["dot", "point"]
        .into_iter()
        .find_map(|word| marked_word(chars, spaced, word))
        .map(|end| skip_spaces(chars, end, 2))
}

/// `i` moved past up to `most` white-space characters.
fn skip_spaces(chars: &[char], mut i: usize, most: usize) -> usize {
    let from = i;
    while i < chars.len() && chars[i].is_whitespace() && i - from < most {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOWN: Placeholders<'static> = Placeholders {
        phone: "[phone]",
        email: "[email]",
    };

    fn masked(text: &str) -> String {
        mask_contacts(text, &SHOWN).text
    }

    #[test]
    fn north_american_numbers_are_masked_whatever_their_separators() {
        for (written, expected) in [
            ("call 403-555-0100 please", "call [phone] please"),
            ("call (403) 555-0100", "call [phone]"),
            ("+1 403 555 0100", "[phone]"),
            ("1-403-555-0100.", "[phone]."),
            ("4035550100", "[phone]"),
            ("403.555.0100 or 587/555/0199", "[phone] or [phone]"),
            ("texte-moi au 514 555-0123!", "texte-moi au [phone]!"),
            ("4 0 3 5 5 5 0 1 0 0", "[phone]"),
            ("local 555-0100 ok", "local [phone] ok"),
            ("apt 2 403 555 0100", "apt 2 [phone]"),
            ("(403)\u{a0}555\u{2013}0100", "[phone]"),
        ] {
            assert_eq!(masked(written), expected, "{written}");
        }
    }

    #[test]
    fn ordinary_numbers_stay() {
        for text in [
            "The quote is $1,250.00 for 3 hours",
            "Come on 2026-12-01 at 14:30",
            "Postal code T2P 1J9, 100 8 Ave SW",
            "I have 2 taps and 12 valves",
            "Model 12345",
            "Invoice 2026 11 28 1234 5678",
            "between 10 and 12 at 1130 2000",
            "A1B2C3D4E5F6G7H8I9J0",
        ] {
            let seen = mask_contacts(text, &SHOWN);
            assert_eq!(seen.text, text);
            assert!(!seen.masked, "{text}");
        }
    }

    #[test]
    fn email_addresses_are_masked_plain_or_disguised() {
        for (written, expected) in [
            (
                "write to jane.doe@example.ca today",
                "write to [email] today",
            ),
            ("jane_doe+work@mail.example.com.", "[email]."),
            ("jane@example.ca. Then call", "[email]. Then call"),
            ("jane @ gmail.com", "[email]"),
            ("jane at gmail dot com", "[email]"),
            ("jane (at) gmail (dot) com", "[email]"),
            ("jane[at]gmail[dot]com", "[email]"),
            ("JANE AT GMAIL DOT COM", "[email]"),
            ("marie arobase videotron point ca", "[email]"),
            (
                "marie at videotron.ca or 514-555-0123",
                "[email] or [phone]",
            ),
        ] {
            assert_eq!(masked(written), expected, "{written}");
        }
    }

    #[test]
    fn at_in_a_sentence_is_not_an_address() {
        for text in [
            "I can be there at 5.30 tomorrow",
            "meet me at the house",
            "look at home dot depot", // no known ending
            "a leak at 2 places",
            "@ the back door",
            "email me",
        ] {
            assert_eq!(masked(text), text);
        }
    }

    #[test]
    fn the_answer_says_whether_anything_was_masked() {
        let seen = mask_contacts("reach me: 403 555 0100", &SHOWN);
        assert!(seen.masked);
        assert_eq!(seen.text, "reach me: [phone]");
        assert!(!mask_contacts("", &SHOWN).masked);
    }
}
