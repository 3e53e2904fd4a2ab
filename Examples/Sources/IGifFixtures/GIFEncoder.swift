// A small GIF89a encoder for the fixture server's animations (and for seeding the fuzzer's corpus).
// Plain Swift, like the decoder. It writes what the fixtures need, not an optimizing encoder: a
// global colour table, a loop extension, and per frame a Graphic Control Extension, a sub-rectangle,
// optionally a local colour table and interlacing.

/// One frame to encode: colour indices over a rectangle of the canvas.
public struct GIFEncoderFrame: Sendable {
    /// The frame's rectangle on the canvas.
    public var x: Int
    /// See ``x``.
    public var y: Int
    /// See ``x``.
    public var width: Int
    /// See ``x``.
    public var height: Int
    /// `width * height` indices, row-major, into the local table if there is one, else the global one.
    public var indices: [UInt8]
    /// Hundredths of a second.
    public var delayCentiseconds: Int
    /// The disposal method (0...3).
    public var disposal: Int
    /// An index drawn as transparent (the canvas shows through).
    public var transparentIndex: UInt8?
    /// A colour table for this frame only, RGB triples (at most 256).
    public var localColors: [(UInt8, UInt8, UInt8)]?
    /// Whether the rows are stored in the four interlace passes.
    public var interlaced: Bool

    /// A frame; see the properties.
    public init(
        x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8], delayCentiseconds: Int = 10,
        disposal: Int = 1, transparentIndex: UInt8? = nil, localColors: [(UInt8, UInt8, UInt8)]? = nil,
        interlaced: Bool = false
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.indices = indices
        self.delayCentiseconds = delayCentiseconds
        self.disposal = disposal
        self.transparentIndex = transparentIndex
        self.localColors = localColors
        self.interlaced = interlaced
    }
}

/// The bytes of a looping GIF89a of `width` × `height` with the global `colors` (RGB triples, at most
/// 256) and `frames`.
public func encodeGIF(
    width: Int, height: Int, colors: [(UInt8, UInt8, UInt8)], frames: [GIFEncoderFrame], loopCount: Int = 0
) -> [UInt8] {
    var out: [UInt8] = Array("GIF89a".utf8)
    func word(_ value: Int) {
        out.append(UInt8(truncatingIfNeeded: value))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
    }
    /// A table's size field: the table holds 2^(field+1) entries, padded with black.
    func sizeField(_ count: Int) -> Int {
        var field = 0
        while 1 << (field + 1) < count { field += 1 }
        return field
    }
    func table(_ colors: [(UInt8, UInt8, UInt8)]) {
        let padded = 1 << (sizeField(colors.count) + 1)
        for index in 0..<padded {
            let color = index < colors.count ? colors[index] : (0, 0, 0)
            out += [color.0, color.1, color.2]
        }
    }

    word(width)
    word(height)
    out.append(0x80 | 0x70 | UInt8(sizeField(colors.count)))  // global table, 8-bit colour resolution
    out += [0, 0]  // background index, aspect ratio
    table(colors)
    out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1]
    word(loopCount)
    out.append(0)

    for frame in frames {
        let packed = UInt8(frame.disposal & 0x07) << 2 | (frame.transparentIndex == nil ? 0 : 1)
        out += [0x21, 0xF9, 4, packed]
        word(frame.delayCentiseconds)
        out += [frame.transparentIndex ?? 0, 0]
        out.append(0x2C)
        word(frame.x)
        word(frame.y)
        word(frame.width)
        word(frame.height)
        var imagePacked: UInt8 = frame.interlaced ? 0x40 : 0
        if let local = frame.localColors { imagePacked |= 0x80 | UInt8(sizeField(local.count)) }
        out.append(imagePacked)
        if let local = frame.localColors { table(local) }
        let tableCount = frame.localColors?.count ?? colors.count
        // At least 2: a code size of 1 is legal but some decoders reject it.
        let minimumCodeSize = max(2, sizeField(tableCount) + 1)
        out.append(UInt8(minimumCodeSize))
        let stored =
            frame.interlaced ? interlacedRows(frame.indices, width: frame.width, height: frame.height) : frame.indices
        let data = compress(stored, minimumCodeSize: minimumCodeSize)
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        out.append(0)
    }
    out.append(0x3B)
    return out
}

/// The rows of an image in the order of the four interlace passes.
private func interlacedRows(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
    var stored: [UInt8] = []
    stored.reserveCapacity(indices.count)
    for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        for row in stride(from: start, to: height, by: step) {
            stored += indices[row * width..<(row + 1) * width]
        }
    }
    return stored
}

/// Compresses colour indices with GIF's LZW: a clear code first, codes growing from
/// `minimumCodeSize + 1` to 12 bits, a clear code whenever the table is full, the end code last, packed
/// least significant bit first.
func compress(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
    let clearCode = 1 << minimumCodeSize
    let endCode = clearCode + 1
    var table: [Int: Int] = [:]  // (prefix code << 8 | byte) → code
    var nextCode = clearCode + 2
    var codeSize = minimumCodeSize + 1
    var out: [UInt8] = []
    var bitBuffer = 0
    var bitCount = 0

    func write(_ code: Int) {
        bitBuffer |= code << bitCount
        bitCount += codeSize
        while bitCount >= 8 {
            out.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }

    write(clearCode)
    guard var current = indices.first.map(Int.init) else {
        write(endCode)
        if bitCount > 0 { out.append(UInt8(truncatingIfNeeded: bitBuffer)) }
        return out
    }
    for byte in indices.dropFirst() {
        let key = current << 8 | Int(byte)
        if let code = table[key] {
            current = code
            continue
        }
        write(current)
        if nextCode < 4096 {
            table[key] = nextCode
            // The decoder defines this code one step later, when it reads the next one; by then it has
            // grown its code size if this code needs the larger size, so the encoder grows it now.
            if nextCode == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            nextCode += 1
        } else {
            write(clearCode)
            table.removeAll(keepingCapacity: true)
            nextCode = clearCode + 2
            codeSize = minimumCodeSize + 1
        }
        current = Int(byte)
    }
    write(current)
    write(endCode)
    if bitCount > 0 { out.append(UInt8(truncatingIfNeeded: bitBuffer)) }
    return out
}
