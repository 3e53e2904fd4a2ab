/// A 24-bit colour. The renderer degrades it to the 256- or 16-colour palette when the terminal does
/// not announce true colour, so controls always describe the colour they mean.
public struct RGB: Hashable, Sendable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// Creates a colour from its components.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Creates a colour from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(UInt8((hex >> 16) & 0xFF), UInt8((hex >> 8) & 0xFF), UInt8(hex & 0xFF))
    }
}

/// Text attributes a cell can carry besides its colours.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Creates attributes from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (SGR 1).
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim, faint (SGR 2).
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Reverse video (SGR 7): how a focused control or a cursor stands out without colour.
    public static let reverse = TextAttributes(rawValue: 1 << 2)
}

/// How a cell is drawn apart from its character: colours (`nil` is the terminal's default) and
/// attributes. Kept separate from the character so text can be drawn in one style.
public struct CellStyle: Hashable, Sendable {
    /// The foreground (text) colour; `nil` is the terminal's default.
    public var foreground: RGB?
    /// The background colour; `nil` is the terminal's default.
    public var background: RGB?
    /// Bold, dim, reverse.
    public var attributes: TextAttributes

    /// Creates a style; all defaults is the terminal's plain text.
    public init(foreground: RGB? = nil, background: RGB? = nil, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's plain text.
    public static let plain = CellStyle()
}

/// One cell of the grid: a character (one grapheme, kept as a `String` so clusters such as a flag or
/// a decomposed Hangul syllable survive) and its style.
///
/// A wide character occupies its own cell and the one to its right; that right cell is a
/// *continuation* (empty `character`), which the renderer never writes, because the terminal fills it.
public struct Cell: Hashable, Sendable {
    /// The grapheme drawn here; `""` for the right half of a wide character.
    public var character: String
    /// Colours and attributes.
    public var style: CellStyle

    /// Creates a cell.
    public init(_ character: String = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// An empty cell in the default style: what a cleared screen holds.
    public static let blank = Cell()

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { character.isEmpty }

    /// The columns the character takes (2 for a wide character, 0 for a continuation).
    public var width: Int {
        guard let first = character.first else { return 0 }
        return max(1, terminalWidth(of: first))
    }
}
