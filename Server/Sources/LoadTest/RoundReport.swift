import Foundation

/// The figures of one round, as text and as a Markdown table row.
struct RoundReport {
    let route: String
    let clients, seconds, resetters, slow: Int
    let connectSeconds: Double
    let steadyClients, steadyComplete, gaps, duplicates, outOfOrder, events, delivered: Int
    let fanOutP50, fanOutP99: Double
    let upstreamRequests, polls: Int
    let memoryPerClient, heapPerClient, cpuMicrosPerEvent: Double
    let liveAfter, resourcesBefore, resourcesAfter, slowClosed, dropped: Int
    /// The slowest fan-outs (ms) and when their events were made (s into the timed part).
    let slowest: [(latencyMs: Double, second: Double)]
    /// When the resetters reset (s into the timed part).
    let resetSecond: Double

    var text: String {
        """
        == \(route): \(clients) clients for \(seconds) s (\(resetters) reset mid-stream, \(slow) stalled); connected in \(String(format: "%.1f", connectSeconds)) s
          steady clients with every event in order: \(steadyComplete) of \(steadyClients) (gaps \(gaps), duplicates \(duplicates), out of order \(outOfOrder))
          events made: \(events), deliveries: \(delivered)
          fan-out latency (made -> last client): p50 \(String(format: "%.1f", fanOutP50)) ms, p99 \(String(format: "%.1f", fanOutP99)) ms
          slowest: \(slowest.map { String(format: "%.1f ms at %.1f s", $0.latencyMs, $0.second) }.joined(separator: ", ")) (resets at \(String(format: "%.1f", resetSecond)) s)
          upstream requests for the category: \(upstreamRequests) (about \(polls) polls)
          server memory per client: \(Int(memoryPerClient)) bytes resident, \(Int(heapPerClient)) bytes heap; server CPU per delivered event: \(String(format: "%.2f", cpuMicrosPerEvent)) µs
          live subscriptions after all clients left: \(liveAfter); Resources.total \(resourcesBefore) -> \(resourcesAfter)
          slow clients closed: \(slowClosed), elements dropped: \(dropped)
        """
    }

    var markdown: String {
        "| \(route) | \(clients) | \(seconds) s | \(steadyComplete)/\(steadyClients) | \(gaps)/\(duplicates)/\(outOfOrder) | "
            + "\(String(format: "%.1f", fanOutP50)) / \(String(format: "%.1f", fanOutP99)) ms | \(upstreamRequests) (~\(polls) polls) | "
            + "\(Int(memoryPerClient)) B | \(Int(heapPerClient)) B | \(String(format: "%.2f", cpuMicrosPerEvent)) µs | \(liveAfter) | \(slowClosed) |"
    }
}
