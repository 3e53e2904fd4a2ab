#if canImport(Glibc)
    import Glibc
    private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let openFilesResource = RLIMIT_NOFILE
#endif

/// The process's limit of open files, raised for thousands of loopback connections.
public enum OpenFiles {
    /// Raises the soft limit to `wanted` (at most the hard limit) and returns the limit now in force.
    @discardableResult
    public static func raiseLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { return 0 }
        let target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(openFilesResource, &limit)
            _ = getrlimit(openFilesResource, &limit)
        }
        return Int(limit.rlim_cur)
    }
}
