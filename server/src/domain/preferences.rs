//! Account preferences: language and the SMS-updates choice, with their stored spellings.

/// The two product languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Language {
    #[default]
    English,
    French,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::French => "fr",
        }
    }

    /// Reads a stored or legacy value: "en", "eng" (seen in the old data) and "fr".
    pub fn from_code(code: &str) -> Option<Self> {
        match code.trim().to_ascii_lowercase().as_str() {
            "en" | "eng" | "english" => Some(Language::English),
            "fr" | "fra" | "fre" | "french" => Some(Language::French),
            _ => None,
        }
    }

    /// Of a pair written once per language, English first, the one for this language: a
    /// service's names, a text, a catalogue. The one place that chooses by language.
    pub fn pick<T>(self, english: T, french: T) -> T {
        match self {
            Language::English => english,
            Language::French => french,
        }
    }
}

/// Whether an account wants SMS updates; `NotAsked` until the person answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SmsUpdates {
    #[default]
    NotAsked,
    Yes,
    No,
}

impl SmsUpdates {
    pub fn as_str(self) -> &'static str {
        match self {
            SmsUpdates::NotAsked => "na",
            SmsUpdates::Yes => "yes",
            SmsUpdates::No => "no",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "na" => Some(SmsUpdates::NotAsked),
            "yes" => Some(SmsUpdates::Yes),
            "no" => Some(SmsUpdates::No),
            _ => None,
        }
    }

    pub fn wants_sms(self) -> bool {
        self == SmsUpdates::Yes
    }

    /// The one rule of who gets texts: the phone to text updates to, when it is verified and
    /// its owner asked for texts.
    pub fn texts_to(self, phone: Option<&str>, verified: bool) -> Option<&str> {
        phone.filter(|_| verified && self.wants_sms())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_eng_reads_as_english() {
        assert_eq!(Language::from_code("eng"), Some(Language::English));
        assert_eq!(Language::from_code("FR"), Some(Language::French));
        assert_eq!(Language::from_code("de"), None);
    }

    #[test]
    fn each_language_picks_its_own_of_a_pair() {
        assert_eq!(Language::English.pick("Plumbing", "Plomberie"), "Plumbing");
        assert_eq!(Language::French.pick("Plumbing", "Plomberie"), "Plomberie");
    }

    #[test]
    fn sms_codes_round_trip() {
        for choice in [SmsUpdates::NotAsked, SmsUpdates::Yes, SmsUpdates::No] {
            assert_eq!(SmsUpdates::from_code(choice.as_str()), Some(choice));
        }
    }
}
