//! The layering ARCHITECTURE.md promises, checked against the code: no import cycle in src/
//! (between top-level modules, and between the files of each folder), and each top-level
//! module imports only what the doc's "Import rules" table lets it.
//!
//! The graph is read from the source with `syn`: every path a file names (`use` trees and paths
//! in code, tests left out) that starts at `crate`, `super`, `self` or, in the binary, the
//! library's name, resolved to the module file it lands in (through `pub use` re-exports, so
//! `super::Foo` re-exported from a sibling is an edge to that sibling).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Folders whose files may still import each other in a cycle. Each entry is a debt: remove
/// it when the folder is untangled.
const CYCLES_ALLOWED_IN: &[&str] = &[];

/// A module: its path from its crate's root (`audit::rules`), `lib` or `main` for the roots.
type Module = String;

/// The modules of both crates, their files, and the modules each file's paths land in.
struct Source {
    /// Module → its file.
    files: BTreeMap<Module, PathBuf>,
    /// Module → names it re-exports (`pub use x::Name`) → the module path they come from.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    /// Module → the modules its code names.
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// `lib::audit::rules` for src/audit/rules/mod.rs; the binary's modules under `main`.
fn module_of(file: &Path, binary_modules: &BTreeSet<String>) -> Module {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    match parts.first().map(String::as_str) {
        Some("lib") => "lib".into(),
        Some("main") => "main".into(),
        Some(top) if binary_modules.contains(top) => format!("main::{}", parts.join("::")),
        _ => format!("lib::{}", parts.join("::")),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string().contains("test"))
    })
}

/// Every path of a `use` tree, as segments.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut full = prefix.clone();
            if n.ident != "self" {
                full.push(n.ident.to_string());
            }
            out.push((full, Some(n.ident.to_string())));
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            full.push(r.ident.to_string());
            out.push((full, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_paths(t, prefix, out)),
    }
}

/// Collects the paths a file names, and its test-only child modules and re-exports.
struct Collector {
    /// The inline modules the visitor is inside (`mod signals { ... }`).
    inline: Vec<String>,
    /// (inline modules, path segments).
    paths: Vec<(Vec<String>, Vec<String>)>,
    /// Child modules declared under `#[cfg(test)]`.
    test_children: Vec<String>,
    /// `pub use` at the file's top: name → path.
    reexports: BTreeMap<String, Vec<String>>,
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test(&m.attrs) {
            if m.content.is_none() {
                self.test_children.push(m.ident.to_string());
            }
            return;
        }
        self.inline.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.inline.pop();
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !is_test(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test(&u.attrs) {
            return;
        }
        let mut out = Vec::new();
        use_paths(&u.tree, &mut Vec::new(), &mut out);
        let public = matches!(u.vis, syn::Visibility::Public(_));
        for (path, name) in out {
            if public
                && self.inline.is_empty()
                && let Some(name) = name
            {
                self.reexports.insert(name, path.clone());
            }
            self.paths.push((self.inline.clone(), path));
        }
    }
    // `pub(crate)` names no module.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.paths.push((self.inline.clone(), segments));
        syn::visit::visit_path(self, p);
    }
}

impl Source {
    fn read() -> Source {
        let mut all = Vec::new();
        rust_files(&src(), &mut all);
        // The binary's own modules: those main.rs declares.
        let main = syn::parse_file(&std::fs::read_to_string(src().join("main.rs")).unwrap()).unwrap();
        let binary_modules: BTreeSet<String> = main
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Mod(m) => Some(m.ident.to_string()),
                _ => None,
            })
            .collect();
        let mut files = BTreeMap::new();
        let mut collected = BTreeMap::new();
        let mut test_only = BTreeSet::new();
        for file in all {
            let module = module_of(&file, &binary_modules);
            let text = std::fs::read_to_string(&file).unwrap();
            let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let mut c = Collector {
                inline: Vec::new(),
                paths: Vec::new(),
                test_children: Vec::new(),
                reexports: BTreeMap::new(),
            };
            c.visit_file(&parsed);
            test_only.extend(c.test_children.iter().map(|t| format!("{module}::{t}")));
            files.insert(module.clone(), file);
            collected.insert(module, c);
        }
        // Test-only modules and everything under them are left out.
        let tested = |m: &str| {
            test_only
                .iter()
                .any(|t| m == t || m.starts_with(&format!("{t}::")))
        };
        files.retain(|m, _| !tested(m));
        collected.retain(|m, _| !tested(m));
        let mut source = Source {
            files,
            reexports: collected
                .iter()
                .map(|(m, c)| (m.clone(), c.reexports.clone()))
                .collect(),
            edges: BTreeMap::new(),
        };
        for (module, c) in &collected {
            let mut to = BTreeSet::new();
            for (inline, path) in &c.paths {
                if let Some(target) = source.resolve(module, inline, path)
                    && &target != module
                {
                    to.insert(target);
                }
            }
            source.edges.insert(module.clone(), to);
        }
        source
    }

    /// The module file `path`, named in `module` (inside its inline modules `inline`), lands
    /// in; `None` for a path that does not start at a crate, `super` or `self`.
    fn resolve(&self, module: &str, inline: &[String], path: &[String]) -> Option<Module> {
        self.resolve_at(module, inline, path, 0)
    }

    fn resolve_at(&self, module: &str, inline: &[String], path: &[String], depth: usize) -> Option<Module> {
        let krate = if module == "main" || module.starts_with("main::") {
            "main"
        } else {
            "lib"
        };
        let mut here: Vec<String> = module.split("::").map(String::from).collect();
        here.extend(inline.iter().cloned());
        let mut rest = path;
        let mut at: Vec<String> = match rest.first()?.as_str() {
            "crate" => {
                rest = &rest[1..];
                vec![krate.to_string()]
            }
            "ragsynth" => {
                rest = &rest[1..];
                vec!["lib".to_string()]
            }
            "self" => {
                rest = &rest[1..];
                here.clone()
            }
            "super" => {
                let mut at = here.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop();
                    rest = &rest[1..];
                }
                at
            }
            _ => return None,
        };
        at.extend(rest.iter().cloned());
        Some(self.land(at, depth))
    }

    /// The deepest module file on `path`, following a re-export of the name after it.
    fn land(&self, path: Vec<String>, depth: usize) -> Module {
        let mut module = path[0].clone();
        let mut i = 1;
        while i < path.len() && self.files.contains_key(&format!("{module}::{}", path[i])) {
            module = format!("{module}::{}", path[i]);
            i += 1;
        }
        let target = path
            .get(i)
            .and_then(|name| self.reexports.get(&module)?.get(name));
        match target {
            // A re-export names its source relative to the re-exporting module.
            Some(target) if depth < 8 => match self.resolve_at(&module, &[], target, depth + 1) {
                Some(landed) => landed,
                None => {
                    let mut at: Vec<String> = module.split("::").map(String::from).collect();
                    at.extend(target.iter().cloned());
                    self.land(at, depth + 1)
                }
            },
            _ => module,
        }
    }
}

/// The top-level module a module belongs to: `audit` for `lib::audit::rules`, `cmd` for
/// `main::cmd::eval`, `main` for the binary's root.
fn top(module: &str) -> &str {
    module.split("::").nth(1).unwrap_or(module)
}

/// The groups of nodes that reach each other (Tarjan's strongly connected components), each
/// with more than one node.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for next in w.edges.get(v).into_iter().flatten() {
            let next = next.as_str();
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[v].min(w.low[next]);
                w.low.insert(v, low);
            } else if w.stack.contains(&next) {
                let low = w.low[v].min(w.index[next]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let at = w.stack.iter().rposition(|x| *x == v).unwrap();
            let group: Vec<String> = w.stack.drain(at..).map(String::from).collect();
            if group.len() > 1 {
                w.found.push(group);
            }
        }
    }
    let mut w = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

/// One graph per folder: its files and subfolders, an edge where code under one names a module
/// under another. A file's use of its folder's `mod.rs` is no edge (the parent declares the
/// children; what it re-exports lands in the file that defines it).
fn folder_graphs(source: &Source) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in &source.edges {
        for to in targets {
            // The deepest folder holding both, and the child of it each lies in.
            let (a, b): (Vec<&str>, Vec<&str>) = (from.split("::").collect(), to.split("::").collect());
            let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            if common == 0 || common >= a.len() || common >= b.len() {
                continue;
            }
            graphs
                .entry(a[..common].join("::"))
                .or_default()
                .entry(a[common].to_string())
                .or_default()
                .insert(b[common].to_string());
        }
    }
    graphs
}

/// Edges between top-level modules.
fn top_level(source: &Source) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in &source.edges {
        edges.entry(top(from).into()).or_default();
        for to in targets.iter().filter(|t| top(t) != top(from)) {
            edges.entry(top(from).into()).or_default().insert(top(to).into());
        }
    }
    edges
}

#[test]
fn no_import_cycle_between_top_level_modules() {
    let edges = top_level(&Source::read());
    assert!(edges.len() > 20, "the graph was not read: {edges:?}");
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles between top-level modules: {found:?}"
    );
}

#[test]
fn no_import_cycle_between_the_files_of_a_folder() {
    let graphs = folder_graphs(&Source::read());
    assert!(graphs.contains_key("lib::audit"), "the graph was not read");
    let mut failures = Vec::new();
    for (folder, edges) in &graphs {
        let found = cycles(edges);
        if CYCLES_ALLOWED_IN.iter().any(|f| format!("lib::{f}") == *folder) {
            println!("skipped (CYCLES_ALLOWED_IN): {folder}: {found:?}");
        } else if !found.is_empty() {
            failures.push(format!("{folder}: {found:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "import cycles between a folder's files:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_reader_resolves_paths_and_the_cycle_finder_finds_cycles() {
    let edges: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), BTreeSet::from([v.to_string()])))
        .collect();
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].iter().map(String::as_str).collect::<BTreeSet<_>>(),
        BTreeSet::from(["a", "b", "c"])
    );
    let source = Source::read();
    // `use` trees, inline paths and re-exports: the audit's LLM rules name the judge and the
    // LLM; `crate::Error` lands in `error`; a sibling's re-export through `super::` lands in
    // the file that defines it; a folder known to hold a cycle still shows it.
    let judged = &source.edges["lib::audit::judged"];
    assert!(
        judged.contains("lib::judge") && judged.contains("lib::llm"),
        "{judged:?}"
    );
    assert!(source.edges["lib::fsutil"].contains("lib::error"));
    assert!(
        source.edges["main::cmd::eval"].contains("main::cmd::output"),
        "`save` through cmd/mod.rs"
    );
    assert!(!cycles(&folder_graphs(&source)["lib::generate"]).is_empty() || CYCLES_ALLOWED_IN.is_empty());
}

/// Imports ARCHITECTURE.md forbids that the code still makes. Each entry is a debt: remove it
/// when the import is gone (the test fails while an entry names an import no longer made).
const RULE_DEBTS: &[(&str, &str)] = &[];

/// One row of the "Import rules" table.
struct Rule {
    may: BTreeSet<String>,
    any: bool,
    not: BTreeSet<String>,
}

/// The "Import rules" table of ARCHITECTURE.md: module → its rule.
fn rules() -> BTreeMap<String, Rule> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap();
    let section = doc
        .split("\n## Import rules\n")
        .nth(1)
        .expect("ARCHITECTURE.md has an `## Import rules` section");
    let section = section.split("\n## ").next().unwrap();
    let names = |cell: &str| -> BTreeSet<String> {
        cell.split(',')
            .map(|n| n.trim().trim_matches('`').to_string())
            .filter(|n| !n.is_empty() && n != "—" && n != "*")
            .collect()
    };
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').collect();
            assert_eq!(cells.len(), 3, "a row has three cells: {l}");
            let module = cells[0].trim().trim_matches('`').to_string();
            let rule = Rule {
                may: names(cells[1]),
                any: cells[1].trim() == "`*`",
                not: names(cells[2]),
            };
            (module, rule)
        })
        .collect()
}

#[test]
fn every_import_is_one_architecture_md_allows() {
    let rules = rules();
    assert!(rules.len() > 20, "the table was not read");
    let mut edges = top_level(&Source::read());
    // The library's root only declares its modules.
    edges.remove("lib");
    let mut wrong = Vec::new();
    for (module, rule) in &rules {
        if !edges.contains_key(module) {
            wrong.push(format!("`{module}` is in the table but not in src/"));
        }
        for name in rule.may.iter().chain(&rule.not) {
            if !rules.contains_key(name) {
                wrong.push(format!("`{module}`'s row names `{name}`, which has no row"));
            }
        }
        if let Some(both) = rule.may.intersection(&rule.not).next() {
            wrong.push(format!("`{module}` both may and must not import `{both}`"));
        }
        let library = !["cli", "cmd", "main", "progress"].contains(&module.as_str());
        if library && module != "render" && (rule.any || rule.may.contains("render")) {
            wrong.push(format!(
                "`{module}` may import render: nothing in the library does"
            ));
        }
    }
    for (from, targets) in &edges {
        let Some(rule) = rules.get(from) else {
            wrong.push(format!("`{from}` has no row in ARCHITECTURE.md's import rules"));
            continue;
        };
        for to in targets {
            let debt = RULE_DEBTS.contains(&(from.as_str(), to.as_str()));
            let allowed = (rule.any || rule.may.contains(to)) && !rule.not.contains(to);
            if !allowed && !debt {
                wrong.push(format!("`{from}` imports `{to}`, which its row does not allow"));
            }
            if allowed && debt {
                wrong.push(format!(
                    "RULE_DEBTS lists `{from}` → `{to}`, which the table allows"
                ));
            }
        }
    }
    for (from, to) in RULE_DEBTS {
        if !edges.get(*from).is_some_and(|t| t.contains(*to)) {
            wrong.push(format!(
                "RULE_DEBTS lists `{from}` → `{to}`, which the code no longer imports: remove it"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's import rules and the code disagree:\n{}",
        wrong.join("\n")
    );
}
