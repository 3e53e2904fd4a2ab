import Glibc

/// The other process of a measurement (the sender), started by the receiver once it listens. Run under
/// callgrind, the receiver is the only process measured: valgrind does not follow children unless told.
enum Child {
    /// Starts this program again with `arguments`.
    static func spawn(_ arguments: [String]) -> pid_t {
        let argv = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let r = posix_spawn(&pid, CommandLine.arguments[0], nil, nil, argv, environ)
        precondition(r == 0, "posix_spawn failed: \(String(cString: strerror(r)))")
        return pid
    }

    /// Waits for the child; its exit status.
    @discardableResult
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Stops a child that runs until told (the simulated BlueZ).
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        wait(pid)
    }
}

/// The process's user and system CPU time so far, in microseconds.
func cpuMicroseconds() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec)
    return user + Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec)
}
