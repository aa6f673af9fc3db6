//! Content ids: how commands, events and inventories name a content entry — a spell, an item —
//! whether it is built in or a server's own. An id is the entry's name with case, spaces and
//! punctuation dropped (`"Hunter's Mark"` → `huntersmark`, see [`super::normalize`]), so the
//! names fights were stored with before ids (the enum variants `"HuntersMark"`,
//! `"PotionOfHealing"`) read as the same ids.
//!
//! An id is kept inline (at most [`ID_LEN`] bytes) so commands and events stay `Copy`; a content
//! file's names are at most 40 characters, and the loader refuses a name whose id would not fit.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};

/// The longest id, in bytes (UTF-8).
pub const ID_LEN: usize = 47;

/// A content entry's id: its normalised name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Id {
    len: u8,
    bytes: [u8; ID_LEN],
}

impl Id {
    /// The id of the entry named (or aliased) `name`; `None` when nothing of it is a letter or
    /// digit, or it is longer than [`ID_LEN`] bytes once normalised.
    pub fn new(name: &str) -> Option<Id> {
        let mut bytes = [0; ID_LEN];
        let mut len = 0;
        for c in name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
        {
            let mut buf = [0; 4];
            let encoded = c.encode_utf8(&mut buf).as_bytes();
            let end = len + encoded.len();
            if end > ID_LEN {
                return None;
            }
            bytes[len..end].copy_from_slice(encoded);
            len = end;
        }
        (len > 0).then_some(Id { len: len as u8, bytes })
    }

    /// An id written in code (a built-in entry's): lowercase ASCII letters and digits only.
    pub const fn known(id: &str) -> Id {
        let src = id.as_bytes();
        assert!(!src.is_empty() && src.len() <= ID_LEN, "an id is 1-47 bytes");
        let mut bytes = [0; ID_LEN];
        let mut i = 0;
        while i < src.len() {
            assert!(
                src[i].is_ascii_lowercase() || src[i].is_ascii_digit(),
                "a known id is lowercase letters and digits"
            );
            bytes[i] = src[i];
            i += 1;
        }
        Id {
            len: src.len() as u8,
            bytes,
        }
    }

    pub fn as_str(&self) -> &str {
        // Built only from whole UTF-8 characters (`new`) or ASCII (`known`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether `name` (an entry's name or alias) has this id.
    pub fn names(&self, name: &str) -> bool {
        Id::new(name) == Some(*self)
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Id {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        Id::new(&text).ok_or_else(|| D::Error::custom(format!("`{text}` is not a content id")))
    }
}

/// An id type for one kind of content: a newtype of [`Id`] with the same serde form. `renamed`
/// lists ids stored before under another name (an old enum variant, `"plate"`) and the id they
/// read back as (`"platearmor"`).
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $crate::content::id::id_type!($(#[$doc])* $name, renamed {});
    };
    ($(#[$doc:meta])* $name:ident, renamed { $($from:literal => $to:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub $crate::content::id::Id);

        impl $name {
            /// The id of the entry named (or aliased) `name` (see `Id::new`).
            pub fn named(name: &str) -> Option<$name> {
                $crate::content::id::Id::new(name).map($name::renamed)
            }

            /// A built-in entry's id, written in code.
            pub const fn known(id: &str) -> $name {
                $name($crate::content::id::Id::known(id))
            }

            /// `id`, or the id it reads back as when stored under an old name.
            fn renamed(id: $crate::content::id::Id) -> $name {
                const RENAMED: &[(&str, &str)] = &[$(($from, $to)),*];
                match RENAMED.iter().find(|(from, _)| *from == id.as_str()) {
                    Some((_, to)) => $name::known(to),
                    None => $name(id),
                }
            }

            pub fn id(self) -> $crate::content::id::Id {
                self.0
            }

            pub fn as_str(&self) -> &str {
                self.0.as_str()
            }

            /// Whether `name` (an entry's name or alias) has this id.
            pub fn names(&self, name: &str) -> bool {
                $name::named(name) == Some(*self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                <$crate::content::id::Id as serde::Deserialize>::deserialize(d).map($name::renamed)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }
    };
}
pub(crate) use id_type;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_the_normalised_name() {
        assert_eq!(Id::new("Hunter's Mark"), Some(Id::known("huntersmark")));
        assert_eq!(Id::new("HuntersMark"), Some(Id::known("huntersmark")));
        assert_eq!(Id::new("  - "), None);
        assert_eq!(Id::new(&"a".repeat(48)), None);
        assert_eq!(Id::new(&"a".repeat(47)).map(|i| i.as_str().len()), Some(47));
        assert_eq!(
            Id::new("Élan Vital").map(|i| i.as_str().to_owned()),
            Some("élanvital".into())
        );
    }

    #[test]
    fn an_id_reads_an_old_variant_name_and_writes_itself() {
        let id: Id = serde_json::from_str("\"PotionOfHealing\"").unwrap();
        assert_eq!(id, Id::known("potionofhealing"));
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"potionofhealing\"");
    }
}
