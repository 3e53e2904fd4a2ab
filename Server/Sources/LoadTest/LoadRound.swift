import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One route's run: a fresh server, N clients for the set time, then the figures.
struct LoadRound {
    let route: String
    let settings: LoadSettings
    let group: MultiThreadedEventLoopGroup

    private var path: String { route == "rx" ? "/events/stream" : "/baseline/stream" }
    private let category = "wildfires"

    func run() async throws -> RoundReport {
        let serverPath =
            settings.serverPath
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ourplanet-server").path
        let server = try ServerProcess(
            path: serverPath,
            arguments: [
                "--baseline", "--poll-ms", "\(settings.pollMs)", "--fixture-step-ms", "\(settings.pollMs)",
                "--buffer", "\(settings.buffer)", "--overflow", settings.overflow,
                "--max-open-files", "\(settings.clients + 1_000)", "--backlog", "4096",
            ])
        defer { server.stop() }
        let idle = try await server.stats()
        let deliveries = Deliveries()
        let clock: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }

        // Connect in batches, so the listen backlog never overflows.
        var clients: [(channel: any Channel, handler: StreamClientHandler, kind: ClientKind)] = []
        let started = Date()
        for index in 0..<settings.clients {
            let kind: ClientKind =
                index < settings.resetters ? .resetter : index < settings.resetters + settings.slow ? .slow : .steady
            let handler = StreamClientHandler(deliveries: deliveries, now: clock)
            clients.append((try await connect(server.baseURL, handler: handler, kind: kind), handler, kind))
        }
        let connectSeconds = Date().timeIntervalSince(started)
        // Every client is streaming on the server and every steady one has had its first event (the
        // snapshot) before the memory is read and the timed part begins.
        let waitStart = Date()
        var connected = try await server.stats()
        while deliveries.clientsStarted < settings.clients - settings.slow
            || (route == "rx" ? connected.liveSubscriptions : connected.baselineClients) < settings.clients,
            Date().timeIntervalSince(waitStart) < 60
        {
            try await Task.sleep(for: .milliseconds(100))
            connected = try await server.stats()
        }
        let windowStart = (deliveries.total, connected.cpuSeconds, Date())
        // Latency counts only events made in the timed part: a snapshot sent to a client as it
        // connects carries the time its change was made, long before.
        let firstTimed = (deliveries.summary().last?.sequence ?? 0) + 1
        let timedStart = clock()
        try await Task.sleep(for: .seconds(settings.seconds / 2))
        let resetAt = clock()
        for client in clients where client.kind == .resetter { reset(client.channel) }
        try await Task.sleep(for: .seconds(settings.seconds - settings.seconds / 2))
        let running = try await server.stats()
        let windowEnd = (deliveries.total, running.cpuSeconds, Date())
        // A change made as the clients close may reach only some of them: the check is up to the one before.
        let lastTimed = (deliveries.summary().last?.sequence ?? 0) - 1
        for client in clients where client.kind != .resetter { client.channel.close(promise: nil) }
        for client in clients { try? await client.channel.closeFuture.get() }
        try await Task.sleep(for: .seconds(2))
        let after = try await server.stats()

        let steady = try await records(of: clients.filter { $0.kind == .steady })
        let summary = deliveries.summary()
        let steadyCount = clients.filter { $0.kind == .steady }.count
        let timed = summary.filter { $0.sequence >= firstTimed && $0.clients >= steadyCount }
        let fanOut = timed.map(\.latencyMs).sorted()
        let seconds = { (time: UInt64) in Double(Int64(bitPattern: time &- timedStart)) / 1e9 }
        let upstream = (running.upstreamRequests[category] ?? 0) - (idle.upstreamRequests[category] ?? 0)
        let delivered = windowEnd.0 - windowStart.0
        return RoundReport(
            route: route, clients: settings.clients, seconds: settings.seconds, resetters: settings.resetters,
            slow: settings.slow, connectSeconds: connectSeconds,
            steadyClients: steady.count,
            steadyComplete: steady.filter {
                $0.gaps == 0 && $0.duplicates == 0 && $0.outOfOrder == 0 && ($0.lastSequence ?? 0) >= lastTimed
                    && !$0.failed
            }.count,
            gaps: steady.reduce(0) { $0 + $1.gaps }, duplicates: steady.reduce(0) { $0 + $1.duplicates },
            outOfOrder: steady.reduce(0) { $0 + $1.outOfOrder }, events: summary.count,
            delivered: deliveries.total, fanOutP50: percentile(fanOut, 0.5), fanOutP99: percentile(fanOut, 0.99),
            upstreamRequests: upstream,
            polls: Int(windowEnd.2.timeIntervalSince(started) * 1000) / settings.pollMs,
            memoryPerClient: Double(connected.residentBytes - idle.residentBytes) / Double(settings.clients),
            heapPerClient: Double((connected.heapBytes ?? 0) - (idle.heapBytes ?? 0)) / Double(settings.clients),
            cpuMicrosPerEvent: delivered > 0 ? (windowEnd.1 - windowStart.1) * 1e6 / Double(delivered) : 0,
            liveAfter: route == "rx" ? after.liveSubscriptions : after.baselineClients,
            resourcesBefore: idle.resourcesTotal, resourcesAfter: after.resourcesTotal,
            slowClosed: after.slowClientsClosed, dropped: after.elementsDropped,
            slowest: timed.sorted { $0.latencyMs > $1.latencyMs }.prefix(3).map { ($0.latencyMs, seconds($0.madeAt)) },
            resetSecond: seconds(resetAt))
    }

    private func connect(_ baseURL: String, handler: StreamClientHandler, kind: ClientKind) async throws -> any Channel
    {
        let port = Int(baseURL.split(separator: ":").last ?? "") ?? 0
        var bootstrap = ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        if kind == .slow {
            // Stalled: a 1 KB receive buffer that is never read, so everything the server sends past
            // it waits in the server's kernel send buffer and then in the client's buffer on the server.
            bootstrap = bootstrap.channelOption(.autoRead, value: false)
                .channelOption(.socketOption(.so_rcvbuf), value: 1_024)
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "\(path)?category=\(category)")
        head.headers.add(name: "Host", value: "127.0.0.1")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        return channel
    }

    /// Closes with an RST instead of a FIN (SO_LINGER with a zero timeout), as a client that crashed.
    private func reset(_ channel: any Channel) {
        guard let socket = channel as? SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func records(of clients: [(channel: any Channel, handler: StreamClientHandler, kind: ClientKind)])
        async throws -> [ClientRecord]
    {
        var records: [ClientRecord] = []
        for client in clients {
            records.append(try await client.channel.eventLoop.submit { client.handler.record }.get())
        }
        return records
    }
}

enum ClientKind {
    case steady, resetter, slow
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}
