import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ourplanet-server started as a child process on a free loopback port.
final class ServerProcess {
    let process = Process()
    let baseURL: String

    init(path: String, arguments: [String]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        // The first line is `ourplanet-server: http://127.0.0.1:PORT (…)`.
        guard let url = text.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }) else {
            process.terminate()
            throw LoadError.serverDidNotStart(text)
        }
        baseURL = String(url)
    }

    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }

    /// The server's `GET /stats`.
    func stats() async throws -> ServerStats {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(baseURL)/stats")!)
        return try JSONDecoder().decode(ServerStats.self, from: data)
    }
}

struct ServerStats: Decodable {
    let liveSubscriptions, streamsOpened, elementsDropped, slowClientsClosed, clientsGone, resourcesTotal: Int
    let baselineClients: Int
    let upstreamRequests: [String: Int]
    let residentBytes: Int
    /// The live heap (nil from a server that does not report it, read as 0).
    let heapBytes: Int?
    let cpuSeconds: Double
}

enum LoadError: Error, CustomStringConvertible {
    case serverDidNotStart(String)

    var description: String {
        switch self {
        case .serverDidNotStart(let output): return "ourplanet-server did not print its URL: \(output)"
        }
    }
}
