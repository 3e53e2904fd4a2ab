import AsyncHTTPClient
import EONETFixture
import Foundation
import LoopbackHTTP
import NIOPosix
import OurPlanetServer
import RxHummingbird
import RxNIO

// ourplanet-server: EONET's open events per category, polled once for every client and streamed to
// each as server-sent events. Offline by default, against a fixture EONET it starts itself on
// loopback; `--eonet https://eonet.gsfc.nasa.gov/api/v3` polls the real one.
let options = Options(CommandLine.arguments.dropFirst())
if let problem = options.problem {
    FileHandle.standardError.write(Data("ourplanet-server: \(problem)\n\(Options.usage)\n".utf8))
    exit(2)
}
OpenFiles.raiseLimit(to: options.maxOpenFiles)

let fixture: EONETFixture?
if options.eonetURL == nil {
    fixture = try await EONETFixture.start(step: .milliseconds(options.fixtureStepMs))
} else {
    fixture = nil
}
let baseURL = options.eonetURL ?? fixture?.baseURL ?? ""
let scheduler = EventLoopScheduler(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
let service = EONETService(baseURL: baseURL, client: .shared, scheduler: scheduler)
let setup = ServerSetup(
    service: service,
    live: LiveEvents(
        service: service, pollInterval: .milliseconds(options.pollMs),
        heartbeat: options.heartbeatMs > 0 ? .milliseconds(options.heartbeatMs) : nil, scheduler: scheduler),
    buffer: options.buffer, monitor: StreamMonitor(),
    baseline: options.baseline
        ? BaselineBroadcaster(baseURL: baseURL, client: .shared, pollInterval: .milliseconds(options.pollMs)) : nil,
    upstreamCounts: { fixture?.requestCounts ?? [:] })
let server = try await LoopbackServer.start(
    responder: makeRouter(setup).buildResponder(), port: options.port, backlog: options.backlog)
// Written unbuffered: the load test reads the first line through a pipe.
FileHandle.standardOutput.write(
    Data(
        """
        ourplanet-server: \(server.baseURL) (EONET: \(fixture == nil ? baseURL : "offline fixture at \(baseURL)"))
          GET \(server.baseURL)/categories
          GET \(server.baseURL)/events?category=wildfires&days=30
          GET \(server.baseURL)/events/stream?category=wildfires   (server-sent events)

        """.utf8))
if let seconds = options.runSeconds {
    try await Task.sleep(for: .seconds(seconds))
} else {
    // Runs until interrupted.
    let (signals, sink) = AsyncStream.makeStream(of: Int32.self)
    let source = DispatchSource.makeSignalSource(signal: SIGINT)
    signal(SIGINT, SIG_IGN)
    source.setEventHandler { sink.yield(SIGINT) }
    source.resume()
    for await _ in signals { break }
}
await server.stop()
await fixture?.stop()
