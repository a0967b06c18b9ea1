//! Tables as a reader sees them, read line by line beside the prose: Markdown pipe tables,
//! reStructuredText grid tables (`+-----+` borders; a row runs from one border to the next and
//! may span lines) and simple tables (`=====  =====` borders; the columns stand where the
//! border's runs do, and a line with an empty first column goes on with the row before).
//!
//! Read as prose, a grid row's second line was a fact of its own ("the rendering currently is.
//! Starts at level 1", asked as "what is the current rendering level" → "level 1", which names
//! no `loop.depth`), and a simple table's rows ran together into one sentence.

/// A byte range of the text: start, end.
pub(super) type Range = (usize, usize);

/// A row: its byte range in the text (all its lines) and its cells, each line's part of a
/// cell joined with spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TableRow {
    pub range: Range,
    pub cells: Vec<String>,
}

/// A table read whole: its column names (none when no rule marked a header) and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Table {
    pub header: Vec<String>,
    /// Byte offset where the header (or, without one, the first row) starts.
    pub header_start: usize,
    pub rows: Vec<TableRow>,
}

/// What a line was to the table being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Line {
    /// Part of the table; the table may go on.
    Taken,
    /// The table's last line (a simple table's bottom border).
    Closed,
    /// Not the table's: the table ended before it.
    Outside,
}

#[derive(Debug)]
enum Shape {
    Pipe,
    Grid,
    /// Byte offsets where the columns start, from the top border.
    Simple(Vec<usize>),
}

/// A table being read.
#[derive(Debug)]
pub(super) struct TableRead {
    shape: Shape,
    header: Option<TableRow>,
    rows: Vec<TableRow>,
    /// The last row goes on over the next line (a grid row until its border).
    open: bool,
}

impl TableRead {
    /// A table opened by `line` (its byte range in the text is `range`), if it opens one.
    pub fn open(line: &str, range: Range) -> Option<TableRead> {
        let t = line.trim();
        let shape = if t.starts_with('|') {
            Shape::Pipe
        } else if is_grid_border(t) {
            Shape::Grid
        } else {
            Shape::Simple(simple_columns(line)?)
        };
        let mut read = TableRead {
            shape,
            header: None,
            rows: Vec::new(),
            open: false,
        };
        if matches!(read.shape, Shape::Pipe) {
            read.read(line, range, false);
        }
        Some(read)
    }

    /// Reads `line`; `next_blank` tells whether the line after it is blank or missing (a
    /// simple table's border before a blank line is its bottom).
    pub fn read(&mut self, line: &str, range: Range, next_blank: bool) -> Line {
        let t = line.trim();
        let lead = line.len() - line.trim_start().len();
        let range = (range.0 + lead, range.0 + lead + t.len());
        match &self.shape {
            Shape::Pipe | Shape::Grid if is_grid_border(t) => {
                // A chunk that starts inside a grid table sees its rows before a border.
                self.shape = Shape::Grid;
                self.open = false;
                if t.contains('=') {
                    self.take_header();
                }
                Line::Taken
            }
            Shape::Pipe if t.starts_with('|') => {
                let cells = pipe_cells(t);
                if cells.iter().all(|c| is_rule(c)) {
                    self.take_header();
                } else {
                    self.rows.push(TableRow { range, cells });
                }
                Line::Taken
            }
            Shape::Grid if t.starts_with('|') => {
                self.go_on(range, pipe_cells(t));
                self.open = true;
                Line::Taken
            }
            Shape::Simple(columns) => {
                if t.is_empty() {
                    return Line::Outside;
                }
                if let Some(runs) = simple_columns(line) {
                    let rule = t.starts_with('-');
                    if runs.len() == columns.len() && (rule || !next_blank) {
                        self.take_header();
                        return Line::Taken;
                    }
                    return if rule { Line::Taken } else { Line::Closed };
                }
                // Prose has words where the table's columns are apart.
                if columns[1..]
                    .iter()
                    .any(|&c| line.get(c - 1..c).is_some_and(|gap| !gap.trim().is_empty()))
                {
                    return Line::Outside;
                }
                let cells = simple_cells(line, columns);
                self.open = cells.first().is_some_and(|c| c.is_empty()) && !self.rows.is_empty();
                self.go_on(range, cells);
                Line::Taken
            }
            _ => Line::Outside,
        }
    }

    /// The table read.
    pub fn finish(self) -> Table {
        let mut rows = self.rows;
        rows.iter_mut()
            .for_each(|r| r.cells.iter_mut().for_each(drop_markup));
        match self.header {
            Some(h) => Table {
                header: h.cells,
                header_start: h.range.0,
                rows,
            },
            None => Table {
                header: Vec::new(),
                header_start: rows.first().map_or(0, |r| r.range.0),
                rows,
            },
        }
    }

    /// A rule under the first row makes it the header; anywhere else it only divides rows.
    fn take_header(&mut self) {
        if self.header.is_none() && self.rows.len() == 1 {
            self.header = self.rows.pop();
        }
    }

    /// Adds a line's cells: to the open row, or as a new row.
    fn go_on(&mut self, range: Range, cells: Vec<String>) {
        match self.rows.last_mut() {
            Some(row) if self.open => {
                row.range.1 = range.1;
                for (i, c) in cells.into_iter().enumerate() {
                    match row.cells.get_mut(i) {
                        Some(cell) if !c.is_empty() => {
                            if !cell.is_empty() {
                                cell.push(' ');
                            }
                            cell.push_str(&c);
                        }
                        Some(_) => {}
                        None => row.cells.push(c),
                    }
                }
            }
            _ => self.rows.push(TableRow { range, cells }),
        }
    }
}

/// A cell that holds a directive (a badge's `.. image::` and its `:alt:`) shows nothing a
/// question can ask about.
fn drop_markup(cell: &mut String) {
    if cell.starts_with("..") {
        cell.clear();
    }
}

/// The cells of a pipe-table line (`| a | b |`).
fn pipe_cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

/// A rule cell of a pipe table (`---`, `:--:`).
fn is_rule(cell: &str) -> bool {
    !cell.is_empty() && cell.chars().all(|c| matches!(c, '-' | ':' | ' '))
}

/// A grid table's border: `+-----+----+` or, under its header, `+=====+====+`.
fn is_grid_border(t: &str) -> bool {
    t.len() >= 3
        && t.starts_with('+')
        && t.ends_with('+')
        && t.chars().all(|c| matches!(c, '+' | '-' | '=' | ':'))
        && t.contains(['-', '='])
}

/// Where the columns of a simple table's border (`=====  =====`, or `-----  -----` under its
/// header) start: two runs or more of one character, apart by spaces.
fn simple_columns(line: &str) -> Option<Vec<usize>> {
    let t = line.trim_end();
    let mark = t.chars().next().filter(|c| matches!(c, '=' | '-'))?;
    let mut starts = Vec::new();
    let mut at = 0;
    // Cut at single spaces to measure where each run stands (a border's geometry, no words).
    for run in t.split(' ') {
        // Runs of one character ("- - -") are a Markdown rule.
        if !run.is_empty() {
            if run.len() < 2 || run.chars().any(|c| c != mark) {
                return None;
            }
            starts.push(at);
        }
        at += run.len() + 1;
    }
    (starts.len() >= 2).then_some(starts)
}

/// The cells of a simple table's line, cut where the columns start.
fn simple_cells(line: &str, columns: &[usize]) -> Vec<String> {
    columns
        .iter()
        .enumerate()
        .map(|(i, &from)| {
            let to = columns.get(i + 1).copied().unwrap_or(usize::MAX);
            char_slice(line, from, to).trim().to_string()
        })
        .collect()
}

/// `line[from..to]` with both ends moved back to character boundaries and clamped.
fn char_slice(line: &str, from: usize, to: usize) -> &str {
    let back = |mut i: usize| {
        i = i.min(line.len());
        while !line.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    &line[back(from)..back(to)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as one table from its first line, as the block reader does.
    fn read_all(text: &str) -> Table {
        let mut lines = Vec::new();
        let mut at = 0;
        for l in text.split_inclusive('\n') {
            let body = l.trim_end_matches('\n');
            lines.push((body, (at, at + body.len())));
            at += l.len();
        }
        let mut read = TableRead::open(lines[0].0, lines[0].1).expect("a table");
        for (i, &(l, r)) in lines.iter().enumerate().skip(1) {
            let next_blank = lines.get(i + 1).is_none_or(|n| n.0.trim().is_empty());
            match read.read(l, r, next_blank) {
                Line::Taken => {}
                Line::Closed => break,
                Line::Outside => break,
            }
        }
        read.finish()
    }

    #[test]
    fn a_grid_row_spans_its_lines() {
        let text = "+-------------+-----------------------------+\n\
                    | Variable    | Description                 |\n\
                    +=============+=============================+\n\
                    | `loop.depth`| Indicates how deep in a     |\n\
                    |             | recursive loop it is.       |\n\
                    +-------------+-----------------------------+\n\
                    | `loop.first`| True if first iteration.    |\n\
                    +-------------+-----------------------------+\n";
        let table = read_all(text);
        assert_eq!(table.header, ["Variable", "Description"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(
            table.rows[0].cells,
            ["`loop.depth`", "Indicates how deep in a recursive loop it is."]
        );
        let (s, e) = table.rows[0].range;
        assert!(text[s..e].starts_with("| `loop.depth`") && text[s..e].ends_with("it is.       |"));
        assert_eq!(&text[table.header_start..table.header_start + 10], "| Variable");
    }

    #[test]
    fn a_simple_table_has_columns_where_its_border_has_runs() {
        let text = "========== ==========================\n\
                    ``string`` (default) accepts any text\n\
                    ``int``    accepts positive integers\n\
                    ========== ==========================\n";
        let table = read_all(text);
        assert!(table.header.is_empty());
        let cells: Vec<_> = table.rows.iter().map(|r| r.cells.clone()).collect();
        assert_eq!(
            cells,
            [
                vec!["``string``", "(default) accepts any text"],
                vec!["``int``", "accepts positive integers"]
            ]
        );
    }

    #[test]
    fn a_simple_table_header_and_continued_rows() {
        let text = "=======  ==============  =====\n\
                    Project  Description     Stars\n\
                    =======  ==============  =====\n\
                    Typer    Type hints for  .. image:: x\n\
                    \x20        CLI apps.         :alt: stars\n\
                    Cloup    Option groups.  .. image:: y\n\
                    =======  ==============  =====\n";
        let table = read_all(text);
        assert_eq!(table.header, ["Project", "Description", "Stars"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.rows[0].cells, ["Typer", "Type hints for CLI apps.", ""]);
        assert_eq!(table.rows[1].cells, ["Cloup", "Option groups.", ""]);
    }

    #[test]
    fn prose_after_a_lone_border_is_not_a_row() {
        let mut read = TableRead::open("====== ======", (0, 13)).expect("a border");
        let prose = "The following two rules differ in their use of a slash.";
        assert_eq!(read.read(prose, (14, 14 + prose.len()), false), Line::Outside);
        assert_eq!(read.read("", (0, 0), false), Line::Outside);
    }

    #[test]
    fn pipe_tables_keep_their_rule_under_the_header() {
        let table = read_all("| Plan | Price |\n|---|---|\n| Team | 8 € |\n");
        assert_eq!(table.header, ["Plan", "Price"]);
        assert_eq!(table.rows[0].cells, ["Team", "8 €"]);
        let headless = read_all("| Team | 8 € |\n| Solo | 4 € |\n");
        assert!(headless.header.is_empty());
        assert_eq!(headless.rows.len(), 2);
    }

    #[test]
    fn a_section_underline_is_no_table() {
        assert!(TableRead::open("==========", (0, 10)).is_none());
        assert!(TableRead::open("Title text", (0, 10)).is_none());
    }
}
