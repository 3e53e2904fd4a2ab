// A GIF decoder in plain Swift (no Foundation), so the libFuzzer harness in Tools/fuzz-gif can build it
// on its own. Written from the GIF89a specification (W3C/CompuServe, 1990): GIF87a and GIF89a,
// variable-length LZW, global and local colour tables, transparency, the four disposal methods,
// interlacing and frame delays.

/// Why bytes could not be decoded as a GIF. Every malformed or truncated input ends in one of these;
/// the decoder never traps on its input.
public enum GIFError: Error, Equatable, Sendable {
    /// The bytes do not start with `GIF87a` or `GIF89a`.
    case notAGIF
    /// The bytes end before the trailer (`0x3B`): a download cut short.
    case truncated
    /// A byte that starts no known block, at this offset.
    case unknownBlock(introducer: UInt8, offset: Int)
    /// The canvas or the frames together are larger than the decoder accepts.
    case tooLarge(width: Int, height: Int)
    /// A frame with neither a local nor a global colour table.
    case noColorTable
    /// An LZW minimum code size outside 1...11.
    case invalidCodeSize(Int)
    /// The compressed data refers to a code not yet defined, or ends before the frame's last pixel.
    case corruptImageData
    /// A well-formed file with no image in it.
    case noFrames
}

/// One frame of an animation, composed onto the whole canvas as it is shown on screen (earlier
/// frames' pixels, the disposal methods and transparency already applied).
public struct GIFFrame: Equatable, Sendable {
    /// The canvas's pixels, row-major from the top left, four bytes each: red, green, blue, alpha
    /// (0 where nothing has been drawn, 255 elsewhere: GIF has no partial transparency).
    public let rgba: [UInt8]
    /// How long the frame stays, in hundredths of a second, as the file says (0 when it does not).
    public let delayCentiseconds: Int
}

/// A decoded GIF: its canvas size, its frames in order and how often it loops.
public struct GIFImage: Equatable, Sendable {
    /// The logical screen's width in pixels.
    public let width: Int
    /// The logical screen's height in pixels.
    public let height: Int
    /// The frames, at least one.
    public let frames: [GIFFrame]
    /// The NETSCAPE2.0 loop count: `0` loops for ever, `nil` when the file has no loop extension.
    public let loopCount: Int?

    /// The most pixels a canvas may have (a 65 535 × 65 535 canvas would need 17 GB per frame) and the
    /// most bytes all composed frames may take together: limits that keep a hostile file from
    /// exhausting memory.
    public static let defaultPixelLimit = 4096 * 4096
    /// See ``defaultPixelLimit``.
    public static let defaultByteLimit = 512 << 20

    /// Decodes `bytes`; throws a ``GIFError`` for anything that is not a whole, valid GIF.
    public init<Bytes: Collection<UInt8>>(
        decoding bytes: Bytes, pixelLimit: Int = GIFImage.defaultPixelLimit,
        byteLimit: Int = GIFImage.defaultByteLimit
    ) throws(GIFError) {
        var decoder = GIFDecoder(bytes: Array(bytes), pixelLimit: pixelLimit, byteLimit: byteLimit)
        self = try decoder.decode()
    }

    init(width: Int, height: Int, frames: [GIFFrame], loopCount: Int?) {
        self.width = width
        self.height = height
        self.frames = frames
        self.loopCount = loopCount
    }
}

/// The state of one decoding: a cursor over the bytes and the canvas being composed.
private struct GIFDecoder {
    let bytes: [UInt8]
    let pixelLimit: Int
    let byteLimit: Int
    var offset = 0

    init(bytes: [UInt8], pixelLimit: Int, byteLimit: Int) {
        self.bytes = bytes
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
    }

    /// What a Graphic Control Extension says about the image that follows it (and only that one).
    struct GraphicControl {
        var disposal = 0
        var transparentIndex: Int?
        var delay = 0
    }

    mutating func byte() throws(GIFError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A little-endian 16-bit field.
    mutating func word() throws(GIFError) -> Int {
        let low = Int(try byte())
        return low | Int(try byte()) << 8
    }

    mutating func take(_ count: Int) throws(GIFError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - offset else { throw .truncated }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A colour table of 2^(size+1) RGB entries, as opaque RGBA.
    mutating func colorTable(sizeField: UInt8) throws(GIFError) -> [UInt32] {
        let count = 1 << (Int(sizeField & 0x07) + 1)
        let table = try take(count * 3)
        var colors: [UInt32] = []
        colors.reserveCapacity(count)
        var index = table.startIndex
        for _ in 0..<count {
            colors.append(pack(table[index], table[index + 1], table[index + 2]))
            index += 3
        }
        return colors
    }

    /// The data sub-blocks that follow an extension or an image, concatenated (each block is a length
    /// byte and that many bytes; a zero length ends them).
    mutating func subBlocks() throws(GIFError) -> [UInt8] {
        var data: [UInt8] = []
        while true {
            let length = Int(try byte())
            if length == 0 { return data }
            data.append(contentsOf: try take(length))
        }
    }

    mutating func skipSubBlocks() throws(GIFError) {
        while true {
            let length = Int(try byte())
            if length == 0 { return }
            _ = try take(length)
        }
    }

    mutating func decode() throws(GIFError) -> GIFImage {
        let signature = try take(6)
        guard signature.elementsEqual("GIF87a".utf8) || signature.elementsEqual("GIF89a".utf8) else {
            throw .notAGIF
        }
        let width = try word()
        let height = try word()
        let packed = try byte()
        _ = try byte()  // background colour index: browsers and ImageMagick show transparency instead
        _ = try byte()  // pixel aspect ratio: square pixels are assumed, as everyone does
        guard width * height <= pixelLimit else { throw .tooLarge(width: width, height: height) }
        let globalTable = packed & 0x80 != 0 ? try colorTable(sizeField: packed) : nil

        var canvas = [UInt32](repeating: 0, count: width * height)
        var frames: [GIFFrame] = []
        var control = GraphicControl()
        var loopCount: Int?
        // How the previous frame is to be disposed of before the next is drawn.
        var pendingDisposal: (method: Int, rect: Rect, saved: [UInt32]?)?
        var composedBytes = 0

        while true {
            let introducer = try byte()
            switch introducer {
            case 0x3B:  // trailer
                guard !frames.isEmpty else { throw .noFrames }
                return GIFImage(width: width, height: height, frames: frames, loopCount: loopCount)
            case 0x21:  // extension
                let label = try byte()
                switch label {
                case 0xF9:
                    let data = try subBlocks()
                    // The block is 4 bytes; a shorter one is malformed and ignored like a missing one.
                    guard data.count >= 4 else { continue }
                    control.disposal = Int(data[0] >> 2) & 0x07
                    control.transparentIndex = data[0] & 0x01 != 0 ? Int(data[3]) : nil
                    control.delay = Int(data[1]) | Int(data[2]) << 8
                case 0xFF:
                    let data = try subBlocks()
                    // NETSCAPE2.0 (or ANIMEXTS1.0): sub-block 1 is the loop count.
                    if data.count >= 14,
                        data[0..<11].elementsEqual("NETSCAPE2.0".utf8)
                            || data[0..<11].elementsEqual("ANIMEXTS1.0".utf8), data[11] == 1
                    {
                        loopCount = Int(data[12]) | Int(data[13]) << 8
                    }
                default:
                    try skipSubBlocks()  // comments and plain text are not drawn
                }
            case 0x2C:  // image descriptor
                let rect = Rect(x: try word(), y: try word(), width: try word(), height: try word())
                let imagePacked = try byte()
                let localTable = imagePacked & 0x80 != 0 ? try colorTable(sizeField: imagePacked) : nil
                let interlaced = imagePacked & 0x40 != 0
                let codeSize = Int(try byte())
                let data = try subBlocks()
                guard let table = localTable ?? globalTable else { throw .noColorTable }
                guard rect.width * rect.height <= pixelLimit else {
                    throw .tooLarge(width: rect.width, height: rect.height)
                }
                composedBytes += width * height * 4
                guard composedBytes <= byteLimit else { throw .tooLarge(width: width, height: height) }
                let indices = try decompress(data, minimumCodeSize: codeSize, pixelCount: rect.width * rect.height)

                if let disposal = pendingDisposal {
                    dispose(disposal, canvas: &canvas, width: width, height: height)
                }
                // Method 3 restores what was under the frame: save it before drawing.
                let saved = control.disposal == 3 ? canvas : nil
                draw(
                    indices, in: rect, interlaced: interlaced, table: table, transparent: control.transparentIndex,
                    canvas: &canvas, width: width, height: height)
                frames.append(GIFFrame(rgba: unpack(canvas), delayCentiseconds: control.delay))
                pendingDisposal = (control.disposal, rect, saved)
                control = GraphicControl()
            default:
                throw .unknownBlock(introducer: introducer, offset: offset - 1)
            }
        }
    }

    func dispose(
        _ disposal: (method: Int, rect: Rect, saved: [UInt32]?), canvas: inout [UInt32], width: Int, height: Int
    ) {
        switch disposal.method {
        case 2:
            // Restore to background: cleared to transparent, as browsers and ImageMagick show it.
            disposal.rect.clipped(width: width, height: height).forEachPixel(width: width) { canvas[$0] = 0 }
        case 3:
            if let saved = disposal.saved { canvas = saved }
        default:
            break  // 0 (unspecified) and 1 (do not dispose) leave the frame in place
        }
    }

    func draw(
        _ indices: [UInt8], in rect: Rect, interlaced: Bool, table: [UInt32], transparent: Int?,
        canvas: inout [UInt32], width: Int, height: Int
    ) {
        var row = 0
        for line in InterlaceOrder(height: rect.height, interlaced: interlaced) {
            let y = rect.y + line
            defer { row += 1 }
            guard y < height else { continue }
            let source = row * rect.width
            for column in 0..<rect.width {
                let x = rect.x + column
                guard x < width else { break }
                let index = Int(indices[source + column])
                if index == transparent { continue }
                // An index past the table's end has no colour; it is drawn black, as giflib does.
                canvas[y * width + x] = index < table.count ? table[index] : pack(0, 0, 0)
            }
        }
    }
}

/// A frame's rectangle on the canvas (which it may overhang; drawing clips it).
private struct Rect {
    let x: Int
    let y: Int
    let width: Int
    let height: Int

    func clipped(width canvasWidth: Int, height canvasHeight: Int) -> Rect {
        let right = min(x + width, canvasWidth)
        let bottom = min(y + height, canvasHeight)
        return Rect(x: x, y: y, width: max(0, right - x), height: max(0, bottom - y))
    }

    func forEachPixel(width canvasWidth: Int, _ body: (Int) -> Void) {
        for row in y..<y + height {
            for column in x..<x + width { body(row * canvasWidth + column) }
        }
    }
}

/// The canvas rows of an image's rows in the order they are stored: top to bottom, or in the four
/// interlace passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
private struct InterlaceOrder: Sequence, IteratorProtocol {
    let height: Int
    let interlaced: Bool
    var pass = 0
    var row = 0

    init(height: Int, interlaced: Bool) {
        self.height = height
        self.interlaced = interlaced
    }

    private static let starts = [0, 4, 2, 1]
    private static let steps = [8, 8, 4, 2]

    mutating func next() -> Int? {
        guard interlaced else {
            defer { row += 1 }
            return row < height ? row : nil
        }
        while pass < 4 {
            let line = Self.starts[pass] + row * Self.steps[pass]
            if line < height {
                row += 1
                return line
            }
            pass += 1
            row = 0
        }
        return nil
    }
}

/// Colours are kept as one `UInt32` per pixel while composing (a canvas copy per frame is then one
/// array copy), red in the low byte, alpha in the high byte.
private func pack(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt32 {
    UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000
}

private func unpack(_ canvas: [UInt32]) -> [UInt8] {
    var rgba = [UInt8](repeating: 0, count: canvas.count * 4)
    for (index, pixel) in canvas.enumerated() {
        rgba[index * 4] = UInt8(truncatingIfNeeded: pixel)
        rgba[index * 4 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
        rgba[index * 4 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
        rgba[index * 4 + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
    }
    return rgba
}

/// Decompresses GIF's variable-length-code LZW: `pixelCount` colour indices from `data`.
///
/// The string table is kept as a prefix code and a last byte per entry (an entry is its prefix's string
/// plus one byte), with each entry's first byte and length alongside so a string can be written
/// straight into place, back to front, without a stack. Data past the last pixel is ignored (encoders
/// pad); data ending before it is ``GIFError/corruptImageData``.
func decompress(_ data: [UInt8], minimumCodeSize: Int, pixelCount: Int) throws(GIFError) -> [UInt8] {
    guard (1...11).contains(minimumCodeSize) else { throw .invalidCodeSize(minimumCodeSize) }
    let clearCode = 1 << minimumCodeSize
    let endCode = clearCode + 1
    let tableSize = 4096
    var prefix = [UInt16](repeating: 0, count: tableSize)
    var suffix = [UInt8](repeating: 0, count: tableSize)
    var first = [UInt8](repeating: 0, count: tableSize)
    var length = [Int](repeating: 1, count: tableSize)
    for code in 0..<clearCode {
        suffix[code] = UInt8(truncatingIfNeeded: code)
        first[code] = UInt8(truncatingIfNeeded: code)
    }

    var output = [UInt8](repeating: 0, count: pixelCount)
    var written = 0
    var codeSize = minimumCodeSize + 1
    var nextCode = clearCode + 2
    var previous: Int?
    var bitBuffer = 0
    var bitCount = 0
    var position = 0

    /// Writes the string of `code` at `written`, cut at the end of the output.
    func emit(_ code: Int) {
        let count = length[code]
        var at = written + count - 1
        var current = code
        // Back to front: the last byte of the string is the entry's own suffix.
        while true {
            if at < pixelCount { output[at] = suffix[current] }
            if current < clearCode { break }
            current = Int(prefix[current])
            at -= 1
        }
        written += count
    }

    func add(_ prefixCode: Int, _ byte: UInt8) {
        prefix[nextCode] = UInt16(prefixCode)
        suffix[nextCode] = byte
        first[nextCode] = first[prefixCode]
        length[nextCode] = length[prefixCode] + 1
        nextCode += 1
        // The code size grows once every code of the current size is taken, up to 12 bits; a full
        // table stays at 12 bits until the encoder sends a clear code.
        if nextCode == 1 << codeSize, codeSize < 12 { codeSize += 1 }
    }

    while written < pixelCount {
        while bitCount < codeSize {
            guard position < data.count else { throw .corruptImageData }
            bitBuffer |= Int(data[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let code = bitBuffer & ((1 << codeSize) - 1)
        bitBuffer >>= codeSize
        bitCount -= codeSize

        if code == clearCode {
            codeSize = minimumCodeSize + 1
            nextCode = clearCode + 2
            previous = nil
            continue
        }
        if code == endCode { break }
        guard let previousCode = previous else {
            // The first code after a clear is a single index (a code past them is undefined yet).
            guard code < clearCode else { throw .corruptImageData }
            emit(code)
            previous = code
            continue
        }
        if code < nextCode {
            // Past clearCode + 1 and below nextCode, codes are defined table entries.
            guard code < clearCode || code > endCode else { throw .corruptImageData }
            if nextCode < tableSize {
                add(previousCode, first[code])
            }
            emit(code)
        } else if code == nextCode, nextCode < tableSize {
            // The "KwKwK" case: the code being defined right now, the previous string plus its own
            // first byte.
            add(previousCode, first[previousCode])
            emit(code)
        } else {
            throw .corruptImageData
        }
        previous = code
    }
    guard written >= pixelCount else { throw .corruptImageData }
    return output
}
