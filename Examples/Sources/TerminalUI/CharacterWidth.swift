/// How many terminal columns a character takes: 0, 1 or 2.
///
/// Terminals lay text out in a grid of columns, and East Asian wide characters (Hangul, CJK ideographs,
/// full-width forms) and emoji take two of them. Getting this wrong shifts everything after such a
/// character on the line, so the grid, the renderer and the text field all ask this one function.
/// It follows Unicode's East Asian Width (W and F) and Emoji_Presentation properties, as terminals
/// (wcwidth) do; a grapheme cluster takes the width of its first scalar, widened to 2 by an emoji
/// presentation selector (U+FE0F) or a regional-indicator pair (a flag).
public func terminalWidth(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    let value = first.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    if scalars.count > 1 && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if first.properties.isEmojiPresentation { return 2 }
    return isEastAsianWide(value) ? 2 : 1
}

/// The number of terminal columns `text` takes (the sum of its characters' widths).
public func terminalWidth(of text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + terminalWidth(of: $1) }
}

/// East Asian Width W or F (Unicode 15), the blocks terminals draw two columns wide.
private func isEastAsianWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F,  // Hangul Jamo initial consonants
        0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
        0x2E80...0x303E,  // CJK radicals, punctuation
        0x3041...0x33FF,  // kana, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical and small forms
        0xFF00...0xFF60, 0xFFE0...0xFFE6,  // full-width forms
        0x16FE0...0x16FE4, 0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // kana supplement
        0x1F1E6...0x1F1FF,  // regional indicators (a flag is a pair of them)
        0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,  // emoji
        0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B and later
        return true
    default:
        return false
    }
}
