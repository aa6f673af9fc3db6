//! Limits Discord documents and enforces on bot messages that its OpenAPI spec does not
//! express: the spec allows 4000 characters of `content` on channel messages (bots get 2000)
//! and checks each embed field but not the 6000-character total across a message's embeds.

use serde_json::Value;

/// A bot message's `content`, in characters.
const CONTENT_MAX: usize = 2000;
/// All embeds of one message together: titles, descriptions, field names and values, footer
/// texts and author names.
const EMBEDS_TOTAL_MAX: usize = 6000;

/// Violations of the documented limits in a message-carrying body (`relative` is the path
/// under `/api/v10`); empty when there are none or the body carries no message.
pub(crate) fn check(relative: &str, body: &Value) -> Vec<String> {
    let (message, at) = if relative.starts_with("/interactions/") {
        (&body["data"], "/data")
    } else if relative.starts_with("/webhooks/")
        || (relative.starts_with("/channels/") && relative.contains("/messages"))
    {
        (body, "")
    } else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    if let Some(content) = message["content"].as_str() {
        let chars = content.chars().count();
        if chars > CONTENT_MAX {
            errors.push(format!(
                "at `{at}/content`: {chars} characters; Discord allows bots {CONTENT_MAX}"
            ));
        }
    }
    let total: usize = message["embeds"]
        .as_array()
        .into_iter()
        .flatten()
        .map(embed_chars)
        .sum();
    if total > EMBEDS_TOTAL_MAX {
        errors.push(format!(
            "at `{at}/embeds`: {total} characters in all; Discord allows {EMBEDS_TOTAL_MAX}"
        ));
    }
    errors
}

fn embed_chars(embed: &Value) -> usize {
    let len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    let fields: usize = embed["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| len(&f["name"]) + len(&f["value"]))
        .sum();
    len(&embed["title"])
        + len(&embed["description"])
        + len(&embed["footer"]["text"])
        + len(&embed["author"]["name"])
        + fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_over_2000_is_refused_where_messages_are_sent() {
        let long = json!({"content": "é".repeat(2001)});
        assert_eq!(check("/channels/1/messages", &long).len(), 1);
        assert_eq!(check("/webhooks/1/tok/messages/@original", &long).len(), 1);
        assert_eq!(
            check("/interactions/1/tok/callback", &json!({"type": 4, "data": long})).len(),
            1
        );
        assert!(check("/channels/1/messages", &json!({"content": "é".repeat(2000)})).is_empty());
        assert!(check("/applications/1/commands", &long).is_empty());
    }

    #[test]
    fn embeds_over_6000_in_total_are_refused() {
        let embed = json!({"title": "t".repeat(256), "description": "d".repeat(2800)});
        assert!(check("/channels/1/messages", &json!({"embeds": [embed]})).is_empty());
        assert_eq!(
            check("/channels/1/messages", &json!({"embeds": [embed, embed]})).len(),
            1
        );
    }
}
