//! The archive of one person's data: a ZIP (read by every system without extra software)
//! with one JSON file per kind of record, their photos and licences as files, and an
//! `index.html` that says in the person's language what each file holds.

use std::io::{Cursor, Write};

use zip::{ZipWriter, write::SimpleFileOptions};

use crate::{domain::Language, store::export_records::Record};

/// A file of the person's (a photo, a licence) and its bytes.
pub struct StoredFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// What each file holds, in both languages: the summary's lines.
fn described(file: &str, language: Language) -> &'static str {
    let (english, french) = match file {
        "account.json" => (
            "Your account: name, email, phone, language, choices and dates.",
            "Votre compte\u{a0}: nom, courriel, téléphone, langue, choix et dates.",
        ),
        "requests.json" => (
            "Your repair requests, with their address and description.",
            "Vos demandes de réparation, avec leur adresse et leur description.",
        ),
        "quotes.json" => (
            "The quotes sent on your requests, or that you sent.",
            "Les soumissions reçues pour vos demandes, ou que vous avez envoyées.",
        ),
        "orders.json" => ("Your hires and jobs.", "Vos travaux retenus."),
        "reviews.json" => (
            "The reviews you wrote or received.",
            "Les avis que vous avez écrits ou reçus.",
        ),
        "licences.json" => (
            "Your licences as you described them (the files are in licences/).",
            "Vos permis tels que vous les avez décrits (les fichiers sont dans licences/).",
        ),
        "services.json" => ("The services you offer.", "Les services que vous offrez."),
        "messages.json" => (
            "Your conversations; the other party is named by first name only.",
            "Vos conversations; l’autre partie n’est nommée que par son prénom.",
        ),
        "payments.json" => (
            "Your payments and their receipts.",
            "Vos paiements et leurs reçus.",
        ),
        "devices.json" => (
            "The devices you asked us to alert.",
            "Les appareils que vous nous avez demandé d’alerter.",
        ),
        "notification_preferences.json" => (
            "What you chose to receive, and where you chose it.",
            "Ce que vous avez choisi de recevoir, et où vous l’avez choisi.",
        ),
        "consents.json" => (
            "What you agreed to (the terms, text alerts), the version of the words, when and from where.",
            "Ce à quoi vous avez consenti (les conditions, les alertes par texto), la version du texte, quand et d’où.",
        ),
        "sign_ins.json" => (
            "When you signed in, and when each sign-in ended.",
            "Vos connexions, et quand chacune a pris fin.",
        ),
        _ => ("", ""),
    };
    language.pick(english, french)
}

/// Escapes text for HTML.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The summary page, in the person's language.
fn summary(records: &[Record], files: &[StoredFile], language: Language) -> String {
    let (title, intro, photos) = language.pick(
        (
            "A copy of your data",
            "Each file below is JSON, a format most programs can read. The photos and licences you gave us are in the folders photos/ and licences/.",
            "photos and files",
        ),
        (
            "Une copie de vos données",
            "Chaque fichier ci-dessous est en JSON, un format que la plupart des logiciels savent lire. Les photos et les permis que vous nous avez confiés sont dans les dossiers photos/ et licences/.",
            "photos et fichiers",
        ),
    );
    let mut items = String::new();
    for record in records {
        let count = match &record.json {
            serde_json::Value::Array(rows) => format!(" ({})", rows.len()),
            _ => String::new(),
        };
        items.push_str(&format!(
            "<li><a href=\"{file}\">{file}</a>{count}: {what}</li>\n",
            file = html(record.file),
            what = html(described(record.file, language)),
        ));
    }
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body><h1>{title}</h1>\n<p>{intro}</p>\n<ul>\n{items}<li>{count} {photos}</li>\n</ul></body></html>\n",
        lang = language.as_str(),
        title = html(title),
        intro = html(intro),
        count = files.len(),
        photos = html(photos),
    )
}

/// Writes the archive. CPU and memory bound by the person's data: run off the async threads.
pub fn write(
    records: &[Record],
    files: &[StoredFile],
    language: Language,
) -> anyhow::Result<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let compressed =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    // Photos are compressed already.
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("index.html", compressed)?;
    zip.write_all(summary(records, files, language).as_bytes())?;
    for record in records {
        zip.start_file(record.file, compressed)?;
        zip.write_all(&serde_json::to_vec_pretty(&record.json)?)?;
    }
    for file in files {
        zip.start_file(file.path.as_str(), stored)?;
        zip.write_all(&file.bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn the_archive_holds_each_record_a_summary_in_the_person_s_language_and_the_files() {
        let records = vec![
            Record {
                file: "account.json",
                json: serde_json::json!({ "name": "Anaïs <Roy>" }),
            },
            Record {
                file: "requests.json",
                json: serde_json::json!([{ "id": 1 }, { "id": 2 }]),
            },
        ];
        let files = vec![StoredFile {
            path: "photos/requests/1/a.jpg".into(),
            bytes: vec![0xff, 0xd8, 0xff],
        }];
        let bytes = write(&records, &files, Language::French).unwrap();
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        let mut names: Vec<String> = archive.file_names().map(str::to_owned).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "account.json",
                "index.html",
                "photos/requests/1/a.jpg",
                "requests.json"
            ]
        );
        let mut index = String::new();
        archive
            .by_name("index.html")
            .unwrap()
            .read_to_string(&mut index)
            .unwrap();
        assert!(index.contains("Une copie de vos données"), "{index}");
        assert!(index.contains("requests.json</a> (2)"), "{index}");
        let mut account = String::new();
        archive
            .by_name("account.json")
            .unwrap()
            .read_to_string(&mut account)
            .unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&account).unwrap();
        assert_eq!(parsed["name"], "Anaïs <Roy>");
        let mut photo = Vec::new();
        archive
            .by_name("photos/requests/1/a.jpg")
            .unwrap()
            .read_to_end(&mut photo)
            .unwrap();
        assert_eq!(photo, [0xff, 0xd8, 0xff]);
    }
}
