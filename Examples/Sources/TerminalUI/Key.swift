/// A key press decoded from the terminal's input bytes.
///
/// Terminals send keys as bytes: text as UTF-8, Enter as a carriage return, Ctrl-letters as the control
/// codes 1–26, and the other keys as escape sequences (`ESC [ A` for Up). Controls switch over this
/// enum and never see bytes.
public enum Key: Hashable, Sendable {
    /// Printable text: one grapheme (a Hangul syllable, an emoji, a letter).
    case character(Character)
    /// Enter / Return (CR, or LF from a paste).
    case enter
    /// Backspace (DEL, or BS from older terminals).
    case backspace
    /// Tab.
    case tab
    /// Shift-Tab (`ESC [ Z`), which moves focus backwards.
    case backTab
    /// Escape pressed on its own (an `ESC` byte with nothing after it in time).
    case escape
    /// Arrow Up.
    case up
    /// Arrow Down.
    case down
    /// Arrow Left.
    case left
    /// Arrow Right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward delete).
    case delete
    /// A function key, F1 to F12.
    case function(Int)
    /// Ctrl and a key: the lower-case letter for Ctrl-A…Ctrl-Z (except those that are Tab, Enter and
    /// Backspace: Ctrl-I, Ctrl-M, Ctrl-H), `" "` for Ctrl-Space, and `\`, `]`, `^`, `_` for the rest.
    case control(Character)
    /// Alt (Meta) and a printable ASCII key, which terminals send as `ESC` followed by the key.
    case alt(Character)
    /// A mouse button pressed or released, or the wheel turned, as SGR mouse reporting sends it
    /// (`ESC [ < b ; x ; y M`); only sent while the terminal reports the mouse (``Terminal/start()``
    /// switches it on). The ``Screen`` routes it to the view under the pointer.
    case mouse(MouseEvent)
    /// Bytes that form no key this decoder knows (an unsupported escape sequence, invalid UTF-8),
    /// kept so nothing is swallowed silently.
    case unknown([UInt8])
}
