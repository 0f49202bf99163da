//! The code's layering, read from the source: no two files of the server or the BFF import
//! each other, even through others, and no server module imports from a layer above its own
//! (transport -> rules -> the state they reach -> store and providers -> errors and settings
//! -> domain types). A module new at the top of `server/src` must be given a layer here.
//!
//! Imports are read as text: `use` trees, `crate::`/`super::`/`self::` paths and a module's
//! own children named in code, each followed through `pub use` re-exports to the file that
//! defines the name. Unit tests (`#[cfg(test)]` onwards) and comments are left out.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// The server's layers, lowest first: a module may import from its own layer or below.
const SERVER_LAYERS: &[(&str, &[&str])] = &[
    ("domain types", &["domain"]),
    ("the tax law's tables, on domain types alone", &["tax"]),
    (
        "errors and settings",
        &[
            "error",
            "config",
            "backoff",
            "blocking",
            "telemetry",
            "metrics",
        ],
    ),
    (
        "store, providers and what they are built on",
        &[
            "store",
            "providers",
            "cache",
            "live",
            "budgets",
            "outbox",
            "auth",
            "photos",
        ],
    ),
    ("the state every rule reaches", &["state"]),
    (
        "rules",
        &[
            "accounts",
            "alerts",
            "billing",
            "content",
            "conversations",
            "dashboards",
            "hiring",
            "matching",
            "problems",
            "quotes",
            "trips",
            "requests",
            "retention",
            "reviews",
            "translations",
            "words",
        ],
    ),
    (
        "transport and wiring",
        &[
            "",
            "api",
            "bootstrap",
            "housekeeping",
            "http_routes",
            "readiness",
            "setup",
            "testing",
        ],
    ),
];

type Module = Vec<String>;

/// One crate's source: each file's module path and its text without tests and comments.
struct Crate {
    files: BTreeMap<Module, String>,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let mut files = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(src).unwrap();
                    // The binary's root is a crate of its own.
                    if relative == Path::new("main.rs") {
                        continue;
                    }
                    let text = clean(&fs::read_to_string(&path).unwrap());
                    files.insert(module_of(relative), inline_modules_as_self(&text));
                }
            }
        }
        Self { files }
    }

    /// Names a file defines (items and child modules).
    fn defines(&self, module: &Module, name: &str) -> bool {
        let text = &self.files[module];
        let mut child = module.clone();
        child.push(name.to_owned());
        self.files.contains_key(&child)
            || words(text).windows(2).any(|pair| {
                pair[1] == name
                    && matches!(
                        pair[0],
                        "struct"
                            | "enum"
                            | "fn"
                            | "trait"
                            | "type"
                            | "const"
                            | "static"
                            | "union"
                            | "macro_rules!"
                    )
            })
    }

    /// `path` (already absolute: crate-relative segments) as the file that defines it.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Module> {
        let found = (0..=path.len())
            .rev()
            .find(|&n| self.files.contains_key(&path[..n]))?;
        let module = path[..found].to_vec();
        let rest = &path[found..];
        if let Some(name) = rest.first()
            && name != "*"
            && depth < 8
            && !self.defines(&module, name)
        {
            for exported in reexports(&self.files[&module]) {
                let exported = strip_alias(&exported);
                if exported.rsplit("::").next() == Some(name.as_str())
                    && let Some(mut target) = absolute(self, &module, &exported)
                {
                    target.extend(rest[1..].iter().cloned());
                    if let Some(file) = self.resolve(&target, depth + 1) {
                        return Some(file);
                    }
                }
            }
        }
        Some(module)
    }

    /// Every import edge between two files.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, text) in &self.files {
            let body = without_reexports(text);
            let mut paths: Vec<String> = use_statements(&body)
                .iter()
                .flat_map(|tree| expand(tree))
                .collect();
            paths.extend(qualified_paths(&body));
            for path in paths {
                let Some(absolute) = absolute(self, module, &strip_alias(&path)) else {
                    continue;
                };
                if let Some(target) = self.resolve(&absolute, 0)
                    && &target != module
                    && !target.is_empty()
                {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        edges
    }
}

fn module_of(relative: &Path) -> Module {
    let mut parts: Module = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The text up to its unit tests, with comments, strings and char literals blanked.
fn clean(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]").next().unwrap_or("");
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        if rest.starts_with(&['/', '/']) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if chars[i] == 'r'
            && (rest.get(1) == Some(&'"') || rest.get(1) == Some(&'#'))
            && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_')
        {
            // A raw string: r"..." or r#"..."#.
            let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
            if rest.get(1 + hashes) != Some(&'"') {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            loop {
                if i >= chars.len() {
                    break;
                }
                if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|c| *c == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if chars[i] == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if chars[i] == '\'' && rest.get(2) == Some(&'\'') {
            i += 3;
        } else if chars[i] == '\'' && rest.get(1) == Some(&'\\') {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `super::` inside an inline `mod name { ... }` names the file's own module: read as `self::`.
fn inline_modules_as_self(text: &str) -> String {
    let mut out = text.to_owned();
    let mut from = 0;
    while let Some(at) = out[from..].find("mod ").map(|at| from + at) {
        from = at + 4;
        let head: String = out[from..]
            .chars()
            .take_while(|c| *c != ';' && *c != '{')
            .collect();
        let is_block = head.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
            && out[from + head.len()..].starts_with('{');
        if !is_block {
            continue;
        }
        let open = from + head.len();
        let mut depth = 0;
        let close = out[open..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(out.len(), |(i, _)| open + i);
        let inner = out[open..close].replace("super::", "self::");
        out.replace_range(open..close, &inner);
    }
    out
}

fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The trees of `use` statements that start at `at` in `text`.
fn statements(text: &str, re_exports: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let starts_word = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let public = {
            let head = before.trim_end();
            head.ends_with("pub") || head.ends_with(')') && head.contains("pub(")
        };
        let Some(end) = rest[at..].find(';') else {
            break;
        };
        if starts_word && public == re_exports {
            found.push(rest[at + 4..at + end].to_owned());
        }
        rest = &rest[at + end + 1..];
    }
    found
}

fn use_statements(text: &str) -> Vec<String> {
    statements(text, false)
}

fn reexports(text: &str) -> Vec<String> {
    statements(text, true)
        .iter()
        .flat_map(|tree| expand(tree))
        .collect()
}

/// `text` without its `pub use` lines: a re-export passes a name on, it does not use it.
fn without_reexports(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest
        .find("pub use ")
        .or_else(|| rest.find("pub(crate) use "))
    {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A use tree (`a::{b, c::{d, e}}`) as its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        return vec![tree.trim().to_owned()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let prefix = &tree[..open];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, open + 1);
    for (i, c) in tree.char_indices().skip(open + 1) {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if i >= close {
            break;
        }
    }
    parts.push(&tree[start..close]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p).into_iter().map(|e| format!("{prefix}{e}")))
        .collect()
}

fn strip_alias(path: &str) -> String {
    path.split(" as ").next().unwrap_or(path).trim().to_owned()
}

/// `crate::a::b`, `super::a`, `self::a` and `child::a` paths written in code.
fn qualified_paths(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_alphabetic() || chars[i] == '_';
        let after_path = i > 0
            && (chars[i - 1].is_alphanumeric()
                || chars[i - 1] == '_'
                || chars[i - 1] == ':' && i > 1 && chars[i - 2] == ':');
        if starts && !after_path {
            let begin = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || chars[i] == '_'
                    || chars[i] == ':'
                        && chars.get(i + 1) == Some(&':')
                        && chars
                            .get(i + 2)
                            .is_some_and(|c| c.is_alphanumeric() || *c == '_'))
            {
                i += if chars[i] == ':' { 2 } else { 1 };
            }
            let path: String = chars[begin..i].iter().collect();
            if path.contains("::") {
                paths.push(path);
            }
        } else {
            i += 1;
        }
    }
    paths
}

/// A path as crate-relative segments, seen from `module`; `None` for other crates'.
fn absolute(krate: &Crate, module: &Module, path: &str) -> Option<Module> {
    let segments: Vec<String> = path
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let first = segments.first()?;
    let mut base: Module = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => {
            let mut base = module.clone();
            let supers = segments.iter().take_while(|s| *s == "super").count();
            base.truncate(base.len().saturating_sub(supers));
            base.extend(segments[supers..].iter().cloned());
            return Some(base);
        }
        child => {
            let mut candidate = module.clone();
            candidate.push(child.to_owned());
            if !krate.files.contains_key(&candidate) {
                return None;
            }
            module.clone()
        }
    };
    let skip = usize::from(matches!(first.as_str(), "crate" | "self"));
    base.extend(segments[skip..].iter().cloned());
    Some(base)
}

/// Groups of files that import each other, directly or through others (Tarjan).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    group.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "the crate root".to_owned()
    } else {
        module.join("::")
    }
}

fn assert_no_circles(crate_name: &str, krate: &Crate) {
    let edges = krate.edges();
    let circles = circles(&edges);
    let described: Vec<String> = circles
        .iter()
        .map(|group| {
            let members: BTreeSet<&Module> = group.iter().collect();
            let ties: Vec<String> = group
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| members.contains(to))
                        .map(move |to| format!("{} -> {}", name(from), name(to)))
                })
                .collect();
            ties.join(", ")
        })
        .collect();
    assert!(
        described.is_empty(),
        "import circles in {crate_name}:\n{}",
        described.join("\n")
    );
}

fn source(crate_dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_dir)
        .join("src")
}

#[test]
fn no_two_files_of_the_server_or_the_bff_import_each_other() {
    for crate_dir in ["server", "bff"] {
        let krate = Crate::read(&source(crate_dir));
        assert!(krate.files.len() > 10, "{crate_dir}: too few files read");
        assert_no_circles(crate_dir, &krate);
    }
}

/// Each file's edges read as edges between the folders (and top-level files) that hold them.
fn folder_edges(edges: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<Module, BTreeSet<Module>> {
    let folder = |module: &Module| module.iter().take(1).cloned().collect::<Module>();
    let mut folders: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, targets) in edges {
        for to in targets {
            let (from, to) = (folder(from), folder(to));
            if from != to && !from.is_empty() && !to.is_empty() {
                folders.entry(from).or_default().insert(to);
            }
        }
    }
    folders
}

/// Two folders whose files import each other, even through other folders, are one piece
/// drawn as two: the layers below cannot see it when both stand on one layer.
#[test]
fn no_two_folders_of_the_server_import_each_other() {
    let krate = Crate::read(&source("server"));
    let edges = folder_edges(&krate.edges());
    let file_edges = krate.edges();
    let described: Vec<String> = circles(&edges)
        .iter()
        .map(|group| {
            let members: BTreeSet<&Module> = group.iter().collect();
            let ties: Vec<String> = file_edges
                .iter()
                .flat_map(|(from, targets)| targets.iter().map(move |to| (from, to)))
                .filter(|(from, to)| {
                    from.first() != to.first()
                        && members.contains(&from.iter().take(1).cloned().collect::<Module>())
                        && members.contains(&to.iter().take(1).cloned().collect::<Module>())
                })
                .map(|(from, to)| format!("{} -> {}", name(from), name(to)))
                .collect();
            ties.join("\n  ")
        })
        .collect();
    assert!(
        described.is_empty(),
        "folders of the server that import each other:\n  {}",
        described.join("\n\n  ")
    );
}

#[test]
fn no_server_module_imports_from_a_layer_above_its_own() {
    let krate = Crate::read(&source("server"));
    let layer_of = |module: &Module| {
        let top = module.first().map_or("", String::as_str);
        SERVER_LAYERS
            .iter()
            .position(|(_, members)| members.contains(&top))
            .unwrap_or_else(|| panic!("`{top}` has no layer: give it one in SERVER_LAYERS"))
    };
    let mut upward = Vec::new();
    for (from, targets) in krate.edges() {
        for to in targets {
            let (low, high) = (layer_of(&from), layer_of(&to));
            if high > low {
                upward.push(format!(
                    "{} ({}) imports {} ({})",
                    name(&from),
                    SERVER_LAYERS[low].0,
                    name(&to),
                    SERVER_LAYERS[high].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a layer above:\n{}",
        upward.join("\n")
    );
}

/// The reader itself: a circle and an upward import it must see.
#[test]
fn the_reader_finds_a_circle_through_a_re_export_and_a_child_named_in_code() {
    let krate = Crate {
        files: BTreeMap::from([
            (vec![], String::new()),
            (
                vec!["a".to_owned()],
                inline_modules_as_self(&clean(
                    "mod inner;\npub use inner::Thing;\nfn f() { crate::b::go(); }\n\
                     mod local { use super::f; }",
                )),
            ),
            (
                vec!["a".to_owned(), "inner".to_owned()],
                clean("pub struct Thing; // use crate::b;\nconst S: &str = \"crate::b::go\";"),
            ),
            (
                vec!["b".to_owned()],
                clean("use crate::a::{Thing, self as alias};\npub fn go() {}"),
            ),
        ]),
    };
    let edges = krate.edges();
    let a = vec!["a".to_owned()];
    let inner = vec!["a".to_owned(), "inner".to_owned()];
    let b = vec!["b".to_owned()];
    assert_eq!(edges[&b], BTreeSet::from([inner.clone(), a.clone()]));
    assert_eq!(edges[&a], BTreeSet::from([b.clone()]));
    assert!(
        !edges.contains_key(&inner),
        "comments and strings are not imports"
    );
    let circles = circles(&edges);
    assert_eq!(circles.len(), 1);
    assert_eq!(
        circles[0].iter().collect::<BTreeSet<_>>(),
        BTreeSet::from([&a, &b])
    );
}
