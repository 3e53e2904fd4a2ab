import Foundation
import XCTest

@testable import IGif
@testable import IGifFixtures

/// The decoder against the reference tools: GIFs made by ImageMagick (`convert`) and gifsicle in the
/// test, decoded by us and by ImageMagick (`convert x.gif -coalesce rgba:-`, each frame composed onto
/// the canvas, as our frames are), compared pixel for pixel, with the frame count and delays from
/// `identify`. Skipped when the tools are missing (Debian: `apt-get install imagemagick gifsicle`).
final class GIFDecoderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("igif-decoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` in the test's directory and returns its standard output; fails on a non-zero status.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String], stdout: URL? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let data = try Data(contentsOf: output)
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        if let stdout { try data.write(to: stdout) }
        return data
    }

    private func imageMagick() throws -> (convert: String, identify: String) {
        guard let convert = Self.tool("convert"), let identify = Self.tool("identify") else {
            throw XCTSkip("ImageMagick (convert, identify) is not installed")
        }
        return (convert, identify)
    }

    /// Decodes `name` with ours and with ImageMagick and compares everything.
    private func assertDecodesLikeImageMagick(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let (convert, identify) = try imageMagick()
        let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
        let gif = try GIFImage(decoding: bytes)
        var reference = try run(convert, [name, "-coalesce", "-depth", "8", "rgba:-"])
        // A transparent pixel has no colour: ImageMagick keeps what was there before, ours is zero.
        for pixel in stride(from: 0, to: reference.count - 3, by: 4) where reference[pixel + 3] == 0 {
            reference.replaceSubrange(pixel..<pixel + 3, with: [0, 0, 0])
        }
        let ours = Data(gif.frames.flatMap(\.rgba))
        XCTAssertEqual(ours.count, reference.count, "\(name): sizes", file: file, line: line)
        if ours != reference {
            let first = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
            let pixel = first / 4
            let frameSize = gif.width * gif.height
            XCTFail(
                "\(name): first difference in frame \(pixel / max(1, frameSize)) at x \(pixel % max(1, frameSize) % gif.width), "
                    + "y \(pixel % max(1, frameSize) / gif.width): ours \(Array(ours[first / 4 * 4..<first / 4 * 4 + 4])), "
                    + "ImageMagick \(Array(reference[first / 4 * 4..<first / 4 * 4 + 4]))", file: file, line: line)
        }
        // One line per frame: its delay in hundredths and the canvas size.
        let info = String(decoding: try run(identify, ["-format", "%T %W %H\n", name]), as: UTF8.self)
        let frames = info.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        XCTAssertEqual(
            frames.map { $0[0] }, gif.frames.map(\.delayCentiseconds), "\(name): delays", file: file, line: line)
        XCTAssertEqual(
            frames.first.map { [$0[1], $0[2]] }, [gif.width, gif.height], "\(name): canvas", file: file, line: line)
    }

    func testGIF87aStillImage() throws {
        let (convert, _) = try imageMagick()
        try run(convert, ["-size", "40x30", "gradient:red-blue", "GIF87:still87.gif"])
        let bytes = try Data(contentsOf: directory.appendingPathComponent("still87.gif"))
        XCTAssertEqual(String(decoding: bytes.prefix(6), as: UTF8.self), "GIF87a")
        try assertDecodesLikeImageMagick("still87.gif")
    }

    func testAnimationWithDelaysAndLoop() throws {
        let (convert, _) = try imageMagick()
        try run(
            convert,
            [
                "-delay", "7", "-size", "40x30", "gradient:red-blue", "-delay", "25", "pattern:checkerboard",
                "-delay", "3", "radial-gradient:yellow-green", "-loop", "0", "animated.gif",
            ])
        try assertDecodesLikeImageMagick("animated.gif")
        let gif = try GIFImage(decoding: Data(contentsOf: directory.appendingPathComponent("animated.gif")))
        XCTAssertEqual(gif.frames.count, 3)
        XCTAssertEqual(gif.loopCount, 0)
    }

    func testInterlacedAndTransparent() throws {
        let (convert, _) = try imageMagick()
        try run(
            convert,
            [
                "-size", "37x29", "xc:none", "-fill", "orange", "-draw", "circle 18,14 18,3", "-interlace", "GIF",
                "interlaced.gif",
            ])
        try assertDecodesLikeImageMagick("interlaced.gif")
        let gif = try GIFImage(decoding: Data(contentsOf: directory.appendingPathComponent("interlaced.gif")))
        XCTAssertEqual(gif.frames[0].rgba[3], 0, "the corner is transparent")
        XCTAssertEqual(gif.frames[0].rgba[(14 * 37 + 18) * 4 + 3], 255, "the centre is opaque")
    }

    func testDisposeToBackgroundAndToPrevious() throws {
        let (convert, _) = try imageMagick()
        // A full background, then small frames at offsets, each disposed of in its own way.
        try run(
            convert,
            [
                "-dispose", "none", "-delay", "10", "-size", "30x20", "gradient:white-navy",
                "-dispose", "background", "-page", "+4+3", "-size", "8x6", "xc:red",
                "-dispose", "previous", "-page", "+15+8", "-size", "9x7", "xc:lime",
                "-dispose", "none", "-page", "+20+2", "-size", "5x5", "xc:blue", "-loop", "0", "disposal.gif",
            ])
        try assertDecodesLikeImageMagick("disposal.gif")
    }

    func testGifsicleOptimizedFramesAndLocalColourTables() throws {
        let (convert, _) = try imageMagick()
        guard let gifsicle = Self.tool("gifsicle") else { throw XCTSkip("gifsicle is not installed") }
        try run(
            convert,
            [
                "-delay", "5", "-size", "48x32", "gradient:red-blue", "-size", "48x32", "gradient:green-yellow",
                "(", "-size", "48x32", "gradient:red-blue", "-fill", "white", "-draw", "rectangle 10,10 20,20", ")",
                "-loop", "0", "source.gif",
            ])
        // -O3 stores only what changed, with transparency; two palettes force local colour tables.
        try run(gifsicle, ["-O3", "source.gif"], stdout: directory.appendingPathComponent("optimized.gif"))
        try run(
            gifsicle, ["--interlace", "--colors", "16", "source.gif"],
            stdout: directory.appendingPathComponent("sixteen.gif"))
        try run(
            gifsicle, ["--disposal", "previous", "-O2", "source.gif"],
            stdout: directory.appendingPathComponent("previous.gif"))
        for name in ["source.gif", "optimized.gif", "sixteen.gif", "previous.gif"] {
            try assertDecodesLikeImageMagick(name)
        }
    }

    /// Our encoder's fixtures (sub-rectangles, transparency, restore-to-previous, interlacing, local
    /// tables), as ImageMagick reads them: the encoder and the decoder do not just agree with each other.
    func testFixtureGIFsDecodeLikeImageMagick() throws {
        _ = try imageMagick()
        for id in ["fxaaaaaaaaaaa", "fxaaaaaaaaaab", "fxQ7mKp2Zr0Ty"] {
            try Data(FixtureGIF.bytes(id: id)).write(to: directory.appendingPathComponent("\(id).gif"))
            try assertDecodesLikeImageMagick("\(id).gif")
        }
    }

    // MARK: - Without the tools

    /// The encoder's LZW through the decoder, for images that fill the string table (4096 codes) and
    /// make the encoder clear it, at every code size.
    func testLZWRoundTripsThroughAFullTable() throws {
        var generator = SplitMix(seed: 20)
        for minimumCodeSize in 2...8 {
            let count = 300 * 200
            let indices = (0..<count).map { _ in UInt8(generator.next() % UInt64(1 << minimumCodeSize)) }
            let data = compress(indices, minimumCodeSize: minimumCodeSize)
            XCTAssertEqual(try decompress(data, minimumCodeSize: minimumCodeSize, pixelCount: count), indices)
        }
    }

    func testMalformedInputsAreErrors() {
        func error(_ bytes: [UInt8]) -> GIFError? {
            do {
                _ = try GIFImage(decoding: bytes)
                return nil
            } catch {
                return error
            }
        }
        let fixture = FixtureGIF.bytes(id: "fxaaaaaaaaaab")
        XCTAssertEqual(error(Array("PNG\r\n\u{1A}\n".utf8)), .notAGIF)
        XCTAssertEqual(error([]), .truncated)
        XCTAssertEqual(error(Array(fixture.dropLast())), .truncated, "no trailer")
        XCTAssertEqual(error(Array(fixture.prefix(fixture.count / 2))), .truncated)
        XCTAssertEqual(
            error(Array("GIF89a".utf8) + [1, 16, 0, 16, 0, 0, 0, 0x3B]), .tooLarge(width: 4097, height: 4096))
        // Every prefix of a valid file is an error, never a crash.
        for length in 0..<fixture.count {
            XCTAssertNotNil(error(Array(fixture.prefix(length))), "prefix \(length)")
        }
        // A frame whose data is a code not yet defined.
        let bad: [UInt8] =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 1, 0x07, 0, 0x3B]
        XCTAssertEqual(error(bad), .corruptImageData)
        XCTAssertEqual(error(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]), .noFrames)
        XCTAssertEqual(
            error(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x42]), .unknownBlock(introducer: 0x42, offset: 13))
    }

    /// The inputs libFuzzer found (Tools/fuzz-gif/run.sh): each decodes to an image or an error.
    func testFuzzCorpusDecodesWithoutCrashing() throws {
        let corpus = try XCTUnwrap(Bundle.module.url(forResource: "FuzzCorpus", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
        XCTAssertGreaterThan(files.count, 50)
        var decoded = 0
        for file in files {
            if (try? GIFImage(decoding: Data(contentsOf: file))) != nil { decoded += 1 }
        }
        XCTAssertGreaterThan(decoded, 0, "some inputs are valid GIFs")
    }
}

/// A small deterministic generator (SplitMix64), so the round trip is the same in every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
