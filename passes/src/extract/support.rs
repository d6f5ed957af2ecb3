//! What the extractor and the size inference share: SSA names recovered from the source
//! text, and small queries on values and ops.

use array_dialect::source::file_line_col;
use melior::ir::{
    BlockLike, Location, OperationRef, RegionLike, Value, ValueLike,
    attribute::AttributeLike,
    block::BlockArgument,
    operation::{OperationLike, OperationResult},
};

/// The name of an op, e.g. `array.map`.
pub fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("<unnamed op>").to_owned()
}

// ---------------------------------------------------------------------------------
// Names from the source text
// ---------------------------------------------------------------------------------

/// Recovers SSA names (`%xs`) of values from the source text through their locations:
/// MLIR keeps no names, but an op's location points at its name in `%r = op …` (or at
/// `%r`), and a block argument's at its `%name`.
#[derive(Clone, Debug, Default)]
pub struct Names<'s> {
    lines: Vec<&'s str>,
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-')
}

/// Splits `xs: …` into `xs` and the rest.
fn split_ident(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    (end > 0).then(|| (&s[..end], &s[end..]))
}

/// Parses the result list `%a, %b:2` (up to an optional `=`): names and counts.
fn parse_result_groups(text: &str) -> Option<Vec<(String, usize)>> {
    let mut groups = Vec::new();
    let mut s = text.trim_start();
    loop {
        let (ident, rest) = split_ident(s.strip_prefix('%')?)?;
        let mut rest = rest;
        let mut count = 1;
        if let Some(r) = rest.strip_prefix(':') {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            count = r[..end].parse().ok()?;
            rest = &r[end..];
        }
        groups.push((ident.to_owned(), count));
        let rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            s = r.trim_start();
            continue;
        }
        return (rest.is_empty() || rest.starts_with('=')).then_some(groups);
    }
}

impl<'s> Names<'s> {
    /// Names recovered from `source_text` (the text the module was parsed from).
    pub fn new(source_text: Option<&'s str>) -> Self {
        let lines =
            source_text.map(|t| t.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()).unwrap_or_default();
        Names { lines }
    }

    /// File, line and column of a location.
    pub fn location(&self, location: Location) -> Option<(String, u32, u32)> {
        file_line_col(location)
    }

    /// `file:line:col`, or `an unknown location`.
    pub fn at(&self, location: Location) -> String {
        match self.location(location) {
            Some((f, l, c)) => format!("{f}:{l}:{c}"),
            None => "an unknown location".to_owned(),
        }
    }

    /// The source line `line` (1-based) and the byte offset of column `col` in it.
    fn text(&self, line: u32, col: u32) -> Option<(&'s str, usize)> {
        let text = *self.lines.get((line as usize).checked_sub(1)?)?;
        let offset = (col as usize).checked_sub(1)?;
        (offset <= text.len() && text.is_char_boundary(offset)).then_some((text, offset))
    }

    /// The result list of an op as written (`%a, %b:2 = …`): names and counts, when they
    /// account for all of its results.
    pub fn result_groups(&self, op: OperationRef) -> Option<Vec<(String, usize)>> {
        if op.result_count() == 0 {
            return None;
        }
        let (_, line, col) = file_line_col(op.location())?;
        let (text, offset) = self.text(line, col)?;
        let rest = &text[offset..];
        let list = if rest.starts_with('%') { rest } else { text[..offset].trim_end().strip_suffix('=')?.trim_start() };
        let groups = parse_result_groups(list)?;
        (groups.iter().map(|g| g.1).sum::<usize>() == op.result_count()).then_some(groups)
    }

    /// The SSA name of result `index` of `op` (`as#1` for the second result of `%as:2`).
    pub fn result_name(&self, op: OperationRef, index: usize) -> Option<String> {
        let mut first = 0;
        for (name, count) in self.result_groups(op)? {
            if index < first + count {
                return Some(if count == 1 { name } else { format!("{name}#{}", index - first) });
            }
            first += count;
        }
        None
    }

    /// The SSA name of a block argument, from its location or, for the entry block of a
    /// `func.func`, from the function's signature.
    pub fn argument_name(&self, argument: BlockArgument) -> Option<String> {
        if let Some((_, line, col)) = file_line_col(argument.location())
            && let Some((text, offset)) = self.text(line, col)
            && let Some(rest) = text[offset..].strip_prefix('%')
            && let Some((ident, _)) = split_ident(rest)
        {
            return Some(ident.to_owned());
        }
        let block = argument.owner();
        let function = block.parent_operation()?;
        if op_name(function) != "func.func" || function.region(0).ok()?.first_block()? != block {
            return None;
        }
        self.signature_names(function)?.get(argument.argument_number()).cloned()
    }

    /// The argument names of `func.func @f(%a: …, %b: …)` as written.
    pub(super) fn signature_names(&self, function: OperationRef) -> Option<Vec<String>> {
        let (_, line, col) = file_line_col(function.location())?;
        let (first, offset) = self.text(line, col)?;
        let mut text = first[offset..].to_owned();
        for l in self.lines.iter().skip(line as usize).take(200) {
            text.push('\n');
            text.push_str(l);
        }
        let at = text.find('@')?;
        let open = at + text[at..].find('(')?;
        let mut names = Vec::new();
        let mut depth = 0usize;
        let mut expect_name = false;
        let bytes: Vec<char> = text[open..].chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                '(' | '[' | '{' | '<' => {
                    depth += 1;
                    if depth == 1 {
                        expect_name = true;
                    }
                }
                '>' if i > 0 && bytes[i - 1] == '-' => {}
                ')' | ']' | '}' | '>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(names);
                    }
                }
                ',' if depth == 1 => expect_name = true,
                '%' if depth == 1 && expect_name => {
                    let rest: String = bytes[i + 1..].iter().take_while(|c| is_ident_char(**c)).collect();
                    if rest.is_empty() {
                        return None;
                    }
                    i += rest.chars().count();
                    names.push(rest);
                    expect_name = false;
                }
                c if c.is_whitespace() => {}
                _ if depth == 1 => expect_name = false,
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// The SSA name of a value, without `%`.
    pub fn value_name(&self, value: Value) -> Option<String> {
        if let Ok(result) = OperationResult::try_from(value) {
            self.result_name(result.owner(), result.result_number())
        } else if let Ok(argument) = BlockArgument::try_from(value) {
            self.argument_name(argument)
        } else {
            None
        }
    }

    /// `%name`, or a description of the value when its name is unknown.
    pub fn value_label(&self, value: Value) -> String {
        if let Some(name) = self.value_name(value) {
            return format!("%{name}");
        }
        if let Ok(result) = OperationResult::try_from(value) {
            let op = result.owner();
            format!("result #{} of '{}' at {}", result.result_number(), op_name(op), self.at(op.location()))
        } else if let Ok(argument) = BlockArgument::try_from(value) {
            format!("block argument #{}", argument.argument_number())
        } else {
            "a value".to_owned()
        }
    }
}

pub fn raw<'c>(value: impl ValueLike<'c>) -> usize {
    value.to_raw().ptr as usize
}

/// The integer value of an `IntegerAttr` named `name` on `op`.
pub fn integer_attribute(op: OperationRef, name: &str) -> Option<i64> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: plain queries on a live attribute.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsAInteger(raw).then(|| mlir_sys::mlirIntegerAttrGetValueInt(raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lists_are_parsed() {
        assert_eq!(parse_result_groups("%a = "), Some(vec![("a".into(), 1)]));
        assert_eq!(parse_result_groups("%a, %b ="), Some(vec![("a".into(), 1), ("b".into(), 1)]));
        assert_eq!(parse_result_groups("%r:2 = array.map"), Some(vec![("r".into(), 2)]));
        assert_eq!(parse_result_groups("%0"), Some(vec![("0".into(), 1)]));
        assert_eq!(parse_result_groups("%a %b"), None);
        assert_eq!(parse_result_groups("array.map %a"), None);
    }
}
