import Dispatch
import Foundation
import LoopbackHTTP
import NIOCore
import NIOHTTP1
import NIOPosix

// ourplanet-load: starts ourplanet-server (a separate process, the binary beside this one) and holds
// N server-sent-event clients on its Rx route, then on its AsyncStream baseline route, for a fixed
// time each, on loopback only. Some clients reset their connection mid-stream, some stop reading (a
// 1 KB receive buffer, never read).
let settings = LoadSettings(CommandLine.arguments.dropFirst())
if let problem = settings.problem {
    FileHandle.standardError.write(Data("ourplanet-load: \(problem)\n\(LoadSettings.usage)\n".utf8))
    exit(2)
}
let openFiles = OpenFiles.raiseLimit(to: settings.clients + 1_000)
guard openFiles >= settings.clients + 100 else {
    FileHandle.standardError.write(Data("ourplanet-load: only \(openFiles) open files allowed\n".utf8))
    exit(1)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
var reports: [RoundReport] = []
for route in settings.routes {
    do {
        let round = try await LoadRound(route: route, settings: settings, group: group).run()
        FileHandle.standardOutput.write(Data((round.text + "\n").utf8))
        reports.append(round)
    } catch {
        // The server went away, or answered what the test cannot read: said, not trapped.
        FileHandle.standardError.write(Data("ourplanet-load: the \(route) round failed: \(error)\n".utf8))
        exit(1)
    }
}
if let path = settings.markdownPath {
    try (reports.map(\.markdown).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}
try await group.shutdownGracefully()
// A client that missed an event, or a subscription left behind (counted by the route, and by
// `Resources.total` in a debug build), fails the run (CI runs a small one).
let broken = reports.filter {
    $0.steadyComplete < $0.steadyClients || $0.liveAfter != 0 || $0.resourcesAfter != $0.resourcesBefore
}
if !broken.isEmpty {
    FileHandle.standardError.write(Data("ourplanet-load: failed: \(broken.map(\.route))\n".utf8))
    exit(1)
}
