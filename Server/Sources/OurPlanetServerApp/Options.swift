import Foundation
import RxHummingbird

/// The command line of ourplanet-server.
struct Options {
    static let usage = """
        usage: ourplanet-server [--port N] [--eonet URL] [--poll-ms N] [--fixture-step-ms N]
                                [--heartbeat-ms N]
                                [--buffer N] [--overflow keepNewest|keepOldest|closeClient]
                                [--send-buffer-bytes N]
                                [--baseline] [--backlog N] [--max-open-files N] [--run-seconds N]
        """

    var port = 0
    var eonetURL: String?
    var pollMs = 5_000
    var fixtureStepMs = 5_000
    /// 0: no heartbeats.
    var heartbeatMs = 15_000
    var buffer = BufferPolicy.closeClient(after: 256)
    var baseline = false
    var backlog = 1_024
    var maxOpenFiles = 20_000
    var runSeconds: Int?
    var problem: String?

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        var capacity = 256
        var overflow = BufferPolicy.Overflow.closeClient
        // 0: the kernel's own send buffer, which grows up to tcp_wmem's maximum.
        var sendBufferBytes = BufferPolicy.defaultSendBufferBytes
        func number(_ name: String, _ range: ClosedRange<Int>) -> Int? {
            guard let text = arguments.popFirst(), let value = Int(text), range.contains(value) else {
                problem = "\(name) needs a number from \(range.lowerBound) to \(range.upperBound)"
                return nil
            }
            return value
        }
        while problem == nil, let argument = arguments.popFirst() {
            switch argument {
            case "--port": port = number(argument, 0...65535) ?? port
            case "--eonet":
                guard let url = arguments.popFirst(), url.hasPrefix("http") else {
                    problem = "--eonet needs an http(s) URL"
                    break
                }
                eonetURL = url.hasSuffix("/") ? String(url.dropLast()) : url
            case "--poll-ms": pollMs = number(argument, 10...3_600_000) ?? pollMs
            case "--heartbeat-ms": heartbeatMs = number(argument, 0...3_600_000) ?? heartbeatMs
            case "--fixture-step-ms": fixtureStepMs = number(argument, 10...3_600_000) ?? fixtureStepMs
            case "--buffer": capacity = number(argument, 1...1_000_000) ?? capacity
            case "--overflow":
                switch arguments.popFirst() {
                case "keepNewest": overflow = .keepNewest
                case "keepOldest": overflow = .keepOldest
                case "closeClient": overflow = .closeClient
                default: problem = "--overflow is keepNewest, keepOldest or closeClient"
                }
            case "--send-buffer-bytes":
                sendBufferBytes = number(argument, 0...(64 << 20)) ?? sendBufferBytes
            case "--baseline": baseline = true
            case "--backlog": backlog = number(argument, 1...65535) ?? backlog
            case "--max-open-files": maxOpenFiles = number(argument, 256...1_048_576) ?? maxOpenFiles
            case "--run-seconds": runSeconds = number(argument, 1...86_400)
            default: problem = "unknown argument \(argument)"
            }
        }
        buffer = BufferPolicy(
            capacity: capacity, overflow: overflow, sendBufferBytes: sendBufferBytes > 0 ? sendBufferBytes : nil)
    }
}
