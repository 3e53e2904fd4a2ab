#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raw memory for the operators' element storage, straight from the C allocator (on Linux
/// `UnsafeMutableRawPointer.allocate` goes through the dearer `posix_memalign`: the `DriveCreating`
/// benchmark). Memory from here is released with ``deallocate(_:)`` only.
@usableFromInline
enum RawMemory {
    /// At least `byteCount` bytes (never zero, so the storage is never shared), aligned to
    /// `alignment`, a power of two. Traps when out of memory, as Swift's allocations do.
    @usableFromInline
    static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let size = Swift.max(byteCount, 1)
        if alignment <= 2 * MemoryLayout<Int>.alignment, let memory = malloc(size) {
            return memory
        }
        return allocateAligned(size: size, alignment: alignment)
    }

    @inline(never)
    private static func allocateAligned(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        let status = posix_memalign(&memory, Swift.max(alignment, MemoryLayout<Int>.alignment), size)
        guard status == 0, let memory else { fatalError("swift-rx: out of memory (\(size) bytes)") }
        return memory
    }

    /// Releases memory from ``allocate(byteCount:alignment:)``.
    @usableFromInline
    static func deallocate(_ memory: UnsafeMutableRawPointer) {
        free(memory)
    }
}
