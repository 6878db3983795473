//! Where in the JSON an error is, as a JSON pointer (RFC 6901), and whether
//! a text has typed JSON's shape at all: a light scan of the text's tokens
//! (strings, brackets, commas), run only after a read failed, so that the
//! reader itself carries no path.

/// One open object or array, as the scan meets it.
enum Frame {
    /// An object; `key`: the last key read (`None` before one, or once its
    /// value is followed by a comma).
    Object { key: Option<String>, want_key: bool },
    /// An array; `index`: the element being read; `started`: whether it
    /// has begun (an empty array, or one just after a comma, has none).
    Array { index: usize, started: bool },
}

/// The end (exclusive) of the string token starting at `at` (a `"`), or the
/// end of `bytes` for an unterminated one.
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Scans the tokens of `bytes` that start before `stop`; calls `on_key`
/// with the depth (1: the top-level object) and each object key. Returns
/// the containers open at `stop`.
fn scan(bytes: &[u8], stop: usize, mut on_key: impl FnMut(usize, &str)) -> Vec<Frame> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    let started = |frames: &mut Vec<Frame>| {
        if let Some(Frame::Array { started, .. }) = frames.last_mut() {
            *started = true;
        }
    };
    while i < stop.min(bytes.len()) {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i);
                let depth = frames.len();
                match frames.last_mut() {
                    Some(Frame::Object { key, want_key }) if *want_key => {
                        let text = serde_json::from_slice::<String>(&bytes[i..end])
                            .unwrap_or_else(|_| String::from_utf8_lossy(&bytes[i..end]).into());
                        on_key(depth, &text);
                        *key = Some(text);
                        *want_key = false;
                    }
                    _ => started(&mut frames),
                }
                i = end;
                continue;
            }
            b'{' => {
                started(&mut frames);
                frames.push(Frame::Object {
                    key: None,
                    want_key: true,
                });
            }
            b'[' => {
                started(&mut frames);
                frames.push(Frame::Array {
                    index: 0,
                    started: false,
                });
            }
            b'}' | b']' => {
                frames.pop();
            }
            b',' => match frames.last_mut() {
                Some(Frame::Object { key, want_key }) => {
                    *key = None;
                    *want_key = true;
                }
                Some(Frame::Array { index, started }) => {
                    *index += 1;
                    *started = false;
                }
                None => {}
            },
            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
            _ => started(&mut frames),
        }
        i += 1;
    }
    frames
}

/// The byte offset of 1-based `line` and `column` (serde_json's count of
/// the bytes read on that line).
fn offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(n) => start += n + 1,
            None => return bytes.len(),
        }
    }
    (start + column).min(bytes.len())
}

/// The JSON pointer of the value being read at `line`, `column`.
pub(super) fn pointer(bytes: &[u8], line: usize, column: usize) -> String {
    let mut out = String::new();
    for frame in scan(bytes, offset(bytes, line, column), |_, _| {}) {
        match frame {
            Frame::Object { key: Some(key), .. } => {
                out.push('/');
                out.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Frame::Array {
                index,
                started: true,
            } => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            _ => {}
        }
    }
    out
}

/// Whether the top-level object has a `name` key and a key naming an NBT
/// type: typed JSON's shape, however broken the rest is.
pub(super) fn has_typed_shape(bytes: &[u8]) -> bool {
    let (mut name, mut typed) = (false, false);
    scan(bytes, bytes.len(), |depth, key| {
        if depth == 1 {
            name |= key == "name";
            typed |= super::TYPES.contains(&key);
        }
    });
    name && typed
}
