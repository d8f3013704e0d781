// SPDX-License-Identifier: GPL-3.0-or-later

//! The expression language's tokenizer and parser: text to an untyped syntax tree.
//!
//! The grammar is C++'s for the part it keeps: float literals (`2`, `0.5`, `1e-3`, `2.5f`;
//! an integer with a leading zero such as `010`, octal in C++, is refused),
//! names (inputs `in0`, `in1`, …, parameters, functions), calls `name(a, b)`, parentheses,
//! unary `-` and `+`, and the binary `+ - * /` with C++'s precedence and left associativity.
//! Every node keeps the column (1-based, in characters) where it starts, so that later
//! stages report errors at the place they concern. Errors show the expression's line with a
//! caret under that column ([`error_at`]).

use crate::error::{Error, Result};

/// The longest expression accepted, in bytes: far more than a block's formula needs, and
/// short enough that no error message or generated kernel gets unwieldy.
pub(crate) const MAX_LENGTH: usize = 4096;

/// How deeply parentheses, calls and unary operators may nest; bounds the recursion of the
/// parser, the type check, the code generator and the interpreter.
pub(crate) const MAX_DEPTH: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinaryOperator {
    Add,
    Subtract,
    Multiply,
    Divide,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeKind {
    Number(f32),
    Name(String),
    Negate(Box<Node>),
    Binary(BinaryOperator, Box<Node>, Box<Node>),
    Call(String, Vec<Node>),
}

/// A syntax tree node and the column where its text starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub column: usize,
}

/// Whether `character` ends a line where the expression is shown (the line breaks of
/// Python's str.splitlines, less the old control codes for file, group and record).
fn is_line_break(character: char) -> bool {
    matches!(character, '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// An InvalidArgument error about `text` at `column` (counted in characters from the start
/// of the text), showing the expression's line with a caret under that column. The place is
/// a line and a column within it when the text has several lines. Its message starts with
/// "expression: ", naming the argument at fault as blocks do.
pub(crate) fn error_at(text: &str, column: usize, message: &str) -> Error {
    let characters: Vec<char> = text.chars().collect();
    let at = column.saturating_sub(1).min(characters.len());
    let line_start = characters[..at].iter().rposition(|&c| is_line_break(c)).map_or(0, |position| position + 1);
    let line_end = characters[at..].iter().position(|&c| is_line_break(c)).map_or(characters.len(), |end| at + end);
    let line: String = characters[line_start..line_end].iter().collect();
    // Tabs stay tabs, so that the caret lines up with the text above it.
    let caret: String = characters[line_start..at].iter().map(|&c| if c == '\t' { '\t' } else { ' ' }).collect();
    let place = if characters.iter().any(|&c| is_line_break(c)) {
        // "\r\n" is one line break.
        let breaks = (0..line_start)
            .filter(|&i| {
                is_line_break(characters[i]) && !(characters[i] == '\r' && characters.get(i + 1) == Some(&'\n'))
            })
            .count();
        format!("line {}, column {}", breaks + 1, at - line_start + 1)
    } else {
        format!("column {column}")
    };
    Error::invalid_argument(format!("expression: {message} ({place}):\n    {line}\n    {caret}^"))
}

/// Why a digits-only literal with a leading zero is refused: C++ reads it as octal (or
/// refuses it, with a digit 8 or 9), where the tokenizer would read it as decimal.
fn leading_zero_message(literal: &str) -> String {
    let decimal = match literal.trim_start_matches('0') {
        "" => "0",
        digits => digits,
    };
    let fix = match u128::from_str_radix(literal, 8) {
        Ok(octal) if octal.to_string() != decimal => format!("as octal ({octal}): write {octal} or {decimal}"),
        Ok(_) => format!("as octal: write {decimal}"),
        Err(_) => format!("as octal, where 8 and 9 are no digits: write {decimal}"),
    };
    format!("the integer literal {literal} has a leading zero, which C++ reads {fix}")
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(f32),
    Name(String),
    Symbol(char),
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Number(value) => format!("the number {value}"),
            Token::Name(name) => format!("the name {name:?}"),
            Token::Symbol(symbol) => format!("'{symbol}'"),
            Token::End => "the end of the expression".to_string(),
        }
    }
}

/// The tokens of `text`, each with its column.
fn tokenize(text: &str) -> Result<Vec<(Token, usize)>> {
    let characters: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut position = 0;
    while position < characters.len() {
        let character = characters[position];
        let column = position + 1;
        if character.is_whitespace() {
            position += 1;
        } else if character.is_ascii_digit()
            || (character == '.' && characters.get(position + 1).is_some_and(char::is_ascii_digit))
        {
            let start = position;
            while position < characters.len() && (characters[position].is_ascii_digit() || characters[position] == '.')
            {
                position += 1;
            }
            if position < characters.len() && matches!(characters[position], 'e' | 'E') {
                position += 1;
                if position < characters.len() && matches!(characters[position], '+' | '-') {
                    position += 1;
                }
                while position < characters.len() && characters[position].is_ascii_digit() {
                    position += 1;
                }
            }
            let literal: String = characters[start..position].iter().collect();
            if literal.len() > 1 && literal.starts_with('0') && literal.bytes().all(|b| b.is_ascii_digit()) {
                return Err(error_at(text, column, &leading_zero_message(&literal)));
            }
            if position < characters.len() && matches!(characters[position], 'f' | 'F') {
                position += 1;
            }
            if position < characters.len()
                && (characters[position].is_ascii_alphanumeric() || characters[position] == '_')
            {
                return Err(error_at(
                    text,
                    position + 1,
                    &format!("unexpected {:?} after the number {literal}", characters[position]),
                ));
            }
            let value: f32 =
                literal.parse().map_err(|_| error_at(text, column, &format!("{literal:?} is not a float literal")))?;
            if !value.is_finite() {
                return Err(error_at(text, column, &format!("the literal {literal} is too large for a float")));
            }
            tokens.push((Token::Number(value), column));
        } else if character.is_ascii_alphabetic() || character == '_' {
            let start = position;
            while position < characters.len()
                && (characters[position].is_ascii_alphanumeric() || characters[position] == '_')
            {
                position += 1;
            }
            tokens.push((Token::Name(characters[start..position].iter().collect()), column));
        } else if "+-*/(),".contains(character) {
            tokens.push((Token::Symbol(character), column));
            position += 1;
        } else {
            return Err(error_at(
                text,
                column,
                &format!("unexpected character {character:?}: expressions use numbers, names, calls, ( ) and + - * /"),
            ));
        }
    }
    tokens.push((Token::End, characters.len() + 1));
    Ok(tokens)
}

/// Parses `text` into a syntax tree.
pub(crate) fn parse(text: &str) -> Result<Node> {
    if text.len() > MAX_LENGTH {
        return Err(Error::invalid_argument(format!(
            "expression: it is {} bytes long; the most is {MAX_LENGTH}",
            text.len()
        )));
    }
    if text.trim().is_empty() {
        return Err(Error::invalid_argument(
            "expression: it is empty: write a formula over in0, in1, … such as \"in0 * 2\"",
        ));
    }
    let mut parser = Parser { text, tokens: tokenize(text)?, position: 0, depth: 0 };
    let node = parser.sum()?;
    let (token, column) = parser.peek();
    if *token != Token::End {
        return Err(error_at(
            text,
            column,
            &format!("expected an operator or the end of the expression, found {}", token.describe()),
        ));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<(Token, usize)>,
    position: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> (&Token, usize) {
        let (token, column) = &self.tokens[self.position];
        (token, *column)
    }

    fn next(&mut self) -> (Token, usize) {
        let taken = self.tokens[self.position].clone();
        if taken.0 != Token::End {
            self.position += 1;
        }
        taken
    }

    fn take_symbol(&mut self, symbols: &str) -> Option<(char, usize)> {
        match self.peek() {
            (Token::Symbol(symbol), column) if symbols.contains(*symbol) => {
                let symbol = *symbol;
                self.position += 1;
                Some((symbol, column))
            }
            _ => None,
        }
    }

    fn enter(&mut self, column: usize) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(error_at(
                self.text,
                column,
                &format!("the expression nests more than {MAX_DEPTH} levels deep"),
            ));
        }
        Ok(())
    }

    /// sum := product (('+' | '-') product)*
    fn sum(&mut self) -> Result<Node> {
        let mut left = self.product()?;
        while let Some((symbol, _)) = self.take_symbol("+-") {
            let operator = if symbol == '+' { BinaryOperator::Add } else { BinaryOperator::Subtract };
            let right = self.product()?;
            let column = left.column;
            left = Node { kind: NodeKind::Binary(operator, Box::new(left), Box::new(right)), column };
        }
        Ok(left)
    }

    /// product := unary (('*' | '/') unary)*
    fn product(&mut self) -> Result<Node> {
        let mut left = self.unary()?;
        while let Some((symbol, _)) = self.take_symbol("*/") {
            let operator = if symbol == '*' { BinaryOperator::Multiply } else { BinaryOperator::Divide };
            let right = self.unary()?;
            let column = left.column;
            left = Node { kind: NodeKind::Binary(operator, Box::new(left), Box::new(right)), column };
        }
        Ok(left)
    }

    /// unary := ('-' | '+') unary | primary
    fn unary(&mut self) -> Result<Node> {
        if let Some((symbol, column)) = self.take_symbol("+-") {
            self.enter(column)?;
            let operand = self.unary()?;
            self.depth -= 1;
            return Ok(if symbol == '-' {
                Node { kind: NodeKind::Negate(Box::new(operand)), column }
            } else {
                operand
            });
        }
        self.primary()
    }

    /// primary := number | name | name '(' (sum (',' sum)*)? ')' | '(' sum ')'
    fn primary(&mut self) -> Result<Node> {
        let (token, column) = self.next();
        match token {
            Token::Number(value) => Ok(Node { kind: NodeKind::Number(value), column }),
            Token::Name(name) => {
                if self.take_symbol("(").is_none() {
                    return Ok(Node { kind: NodeKind::Name(name), column });
                }
                self.enter(column)?;
                let mut arguments = Vec::new();
                if self.take_symbol(")").is_none() {
                    loop {
                        arguments.push(self.sum()?);
                        if self.take_symbol(")").is_some() {
                            break;
                        }
                        if self.take_symbol(",").is_none() {
                            let (found, at) = self.peek();
                            return Err(error_at(
                                self.text,
                                at,
                                &format!("expected ',' or ')' in the call of {name}, found {}", found.describe()),
                            ));
                        }
                    }
                }
                self.depth -= 1;
                Ok(Node { kind: NodeKind::Call(name, arguments), column })
            }
            Token::Symbol('(') => {
                self.enter(column)?;
                let inner = self.sum()?;
                if self.take_symbol(")").is_none() {
                    let (found, at) = self.peek();
                    return Err(error_at(
                        self.text,
                        at,
                        &format!("expected ')' to close the '(' of column {column}, found {}", found.describe()),
                    ));
                }
                self.depth -= 1;
                Ok(inner)
            }
            other => Err(error_at(
                self.text,
                column,
                &format!("expected a number, a name or '(', found {}", other.describe()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(value: f32, column: usize) -> Node {
        Node { kind: NodeKind::Number(value), column }
    }

    #[test]
    fn precedence_and_associativity_follow_cplusplus() {
        let tree = parse("1 - 2 - 3 * 4").unwrap();
        let NodeKind::Binary(BinaryOperator::Subtract, left, right) = tree.kind else { panic!("{tree:?}") };
        assert_eq!(
            left.kind,
            NodeKind::Binary(BinaryOperator::Subtract, Box::new(number(1.0, 1)), Box::new(number(2.0, 5)))
        );
        assert_eq!(
            right.kind,
            NodeKind::Binary(BinaryOperator::Multiply, Box::new(number(3.0, 9)), Box::new(number(4.0, 13)))
        );
    }

    #[test]
    fn literals_take_cplusplus_forms() {
        for (text, value) in [
            ("2", 2.0),
            ("0", 0.0),
            ("0.5", 0.5),
            ("00.5", 0.5),
            ("010.5", 10.5),
            ("010e1", 100.0),
            (".25", 0.25),
            ("5.", 5.0),
            ("1.e5", 1e5),
            ("1e-3", 1e-3),
            ("2.5f", 2.5),
            ("3E+2F", 300.0),
        ] {
            assert_eq!(parse(text).unwrap().kind, NodeKind::Number(value), "{text}");
        }
    }

    #[test]
    fn integers_with_a_leading_zero_are_refused_as_cplusplus_reads_them_as_octal() {
        for (text, fix) in [
            ("010", "reads as octal (8): write 8 or 10"),
            ("in0 * 0017f", "reads as octal (15): write 15 or 17"),
            ("07", "reads as octal: write 7"),
            ("00", "reads as octal: write 0"),
            ("09", "where 8 and 9 are no digits: write 9"),
        ] {
            let message = parse(text).unwrap_err().message().to_string();
            assert!(message.contains("has a leading zero") && message.contains(fix), "{text}: {message}");
        }
        for text in ["0x10", "0b1", "1.2.3", "1e"] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn errors_in_expressions_of_several_lines_name_the_line_and_show_it() {
        let message = parse("in0 *\n  * k").unwrap_err().message().to_string();
        assert!(message.ends_with("(line 2, column 3):\n      * k\n      ^"), "{message}");
        let message = parse("in0\r\n+ 1\r\n+ $").unwrap_err().message().to_string();
        assert!(message.ends_with("(line 3, column 3):\n    + $\n      ^"), "{message}");
        let message = parse("in0 +\n").unwrap_err().message().to_string();
        assert!(message.ends_with("(line 2, column 1):\n    \n    ^"), "{message}");
        let message = parse("\tin0 $").unwrap_err().message().to_string();
        assert!(message.ends_with("(column 6):\n    \tin0 $\n    \t    ^"), "{message}");
        assert!(parse("in0\r\n*\t2\u{2028}+ 1").is_ok());
    }

    #[test]
    fn errors_point_at_the_column() {
        let message = parse("in0 * * k").unwrap_err().message().to_string();
        assert!(message.contains("(column 7)"), "{message}");
        assert!(message.ends_with("    in0 * * k\n          ^"), "{message}");
        for (text, column) in
            [("sin(in0", 8), ("in0 $ 2", 5), ("(in0 + 1", 9), ("in0 in1", 5), ("2x", 2), ("1e40", 1), ("f(a b)", 5)]
        {
            let message = parse(text).unwrap_err().message().to_string();
            assert!(message.contains(&format!("(column {column})")), "{text}: {message}");
        }
        assert!(parse("   ").is_err());
        assert!(parse(&"(".repeat(MAX_DEPTH + 1)).unwrap_err().message().contains("nests"));
    }
}
