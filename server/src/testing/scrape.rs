//! Reading `/metrics` in tests: one series' value by its name and labels.

/// The value of series `name` with exactly `labels` (in any order) in Prometheus text.
pub fn metric(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let mut wanted: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    wanted.sort();
    text.lines().find_map(|line| {
        let (series, number) = line.rsplit_once(' ')?;
        let (series_name, found) = match series.split_once('{') {
            Some((series_name, rest)) => (series_name, rest.strip_suffix('}')?),
            None => (series, ""),
        };
        let mut found: Vec<String> = found
            .split(',')
            .filter(|pair| !pair.is_empty())
            .map(str::to_owned)
            .collect();
        found.sort();
        (series_name == name && found == wanted).then(|| number.parse().ok())?
    })
}

/// `GET url` (a `/metrics` page): its text, after checking the status and content type.
pub async fn scrape(url: &str) -> String {
    let response = reqwest::get(url).await.expect("GET /metrics");
    assert_eq!(response.status(), 200, "GET {url}");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    response.text().await.expect("the metrics' text")
}
