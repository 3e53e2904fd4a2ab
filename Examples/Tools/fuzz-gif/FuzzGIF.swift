// libFuzzer entry point for the GIF decoder (Sources/IGif/GIF/GIFDecoder.swift), built on its own by
// run.sh. Any input must end in a GIFImage or a GIFError: a trap, an overflow, an out-of-bounds
// access or a leak is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Small limits: libFuzzer would otherwise spend its time filling huge canvases that the limits
    // (tested separately) would refuse anyway.
    _ = try? GIFImage(decoding: bytes, pixelLimit: 1 << 16, byteLimit: 8 << 20)
    return 0
}
