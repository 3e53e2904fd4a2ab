/// The command line of ourplanet-load.
struct LoadSettings {
    static let usage = """
        usage: ourplanet-load [--clients N] [--seconds N] [--resetters N] [--slow N] [--poll-ms N]
                              [--buffer N] [--overflow keepNewest|keepOldest|closeClient]
                              [--routes rx,baseline] [--server PATH] [--markdown PATH]
        """

    var clients = 1_000
    var seconds = 20
    var resetters = 100
    var slow = 10
    var pollMs = 1_000
    var buffer = 64
    var overflow = "closeClient"
    var routes = ["rx", "baseline"]
    var serverPath: String?
    var markdownPath: String?
    var problem: String?

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        func number(_ name: String, _ range: ClosedRange<Int>) -> Int? {
            guard let text = arguments.popFirst(), let value = Int(text), range.contains(value) else {
                problem = "\(name) needs a number from \(range.lowerBound) to \(range.upperBound)"
                return nil
            }
            return value
        }
        while problem == nil, let argument = arguments.popFirst() {
            switch argument {
            case "--clients": clients = number(argument, 1...50_000) ?? clients
            case "--seconds": seconds = number(argument, 2...3_600) ?? seconds
            case "--resetters": resetters = number(argument, 0...50_000) ?? resetters
            case "--slow": slow = number(argument, 0...50_000) ?? slow
            case "--poll-ms": pollMs = number(argument, 50...60_000) ?? pollMs
            case "--buffer": buffer = number(argument, 1...100_000) ?? buffer
            case "--overflow":
                overflow = arguments.popFirst() ?? ""
                if !["keepNewest", "keepOldest", "closeClient"].contains(overflow) {
                    problem = "--overflow is keepNewest, keepOldest or closeClient"
                }
            case "--routes":
                routes = (arguments.popFirst() ?? "").split(separator: ",").map(String.init)
                if routes.isEmpty || !routes.allSatisfy({ $0 == "rx" || $0 == "baseline" }) {
                    problem = "--routes is a list of rx and baseline"
                }
            case "--server": serverPath = arguments.popFirst()
            case "--markdown": markdownPath = arguments.popFirst()
            default: problem = "unknown argument \(argument)"
            }
        }
        if problem == nil, resetters + slow > clients { problem = "more resetting and slow clients than clients" }
    }
}
