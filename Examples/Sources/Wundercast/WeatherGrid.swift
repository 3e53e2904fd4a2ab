import Foundation
import TerminalUI

/// One point of the grid around the map's centre (challenge 2): the weather that arrived there, or
/// the failure of its request. A failure is a value, not an error event, so one point failing leaves
/// the others standing.
public enum GridPoint: Equatable, Sendable {
    /// The weather at the point.
    case arrived(Weather)
    /// The request for the point at `coordinate` failed.
    case failed(LocationCoordinate2D, ApiError)
}

/// The grid around the map's centre as it loads: the points answered so far, in the order they
/// arrived, and whether more are coming. A new grid starts empty and loading; each answer adds a
/// point; the end of the requests clears ``isLoading``.
public struct WeatherGrid: Equatable, Sendable {
    /// The centre the grid is around.
    public let center: LocationCoordinate2D
    /// The points answered so far.
    public private(set) var points: [GridPoint]
    /// Whether requests are still running.
    public private(set) var isLoading: Bool

    public init(center: LocationCoordinate2D, points: [GridPoint] = [], isLoading: Bool = true) {
        self.center = center
        self.points = points
        self.isLoading = isLoading
    }

    /// The grid with `point` added.
    func adding(_ point: GridPoint) -> WeatherGrid {
        var grid = self
        grid.points.append(point)
        return grid
    }

    /// The grid with every request ended.
    var finished: WeatherGrid {
        var grid = self
        grid.isLoading = false
        return grid
    }

    /// The failed points' errors, in the order they failed.
    var failures: [ApiError] {
        points.compactMap { point in
            guard case .failed(_, let error) = point else { return nil }
            return error
        }
    }

    /// What the map draws: each arrived point's weather, and a ``FailedPointOverlay`` where a request
    /// failed.
    func overlays() -> [MapOverlay] {
        points.map { point -> MapOverlay in
            switch point {
            case .arrived(let weather): return weather.overlay()
            case .failed(let coordinate, _): return FailedPointOverlay(coordinate: coordinate)
            }
        }
    }
}

/// Where a request of the grid failed: drawn as a red `✗` (by the view controller's renderer) so a
/// hole in the grid reads as a failure, not as missing weather.
public final class FailedPointOverlay: MapOverlay {
    public let coordinate: LocationCoordinate2D

    init(coordinate: LocationCoordinate2D) {
        self.coordinate = coordinate
    }

    /// How the renderer draws it.
    static let text = "✗"
    static let style = CellStyle(foreground: RGB(hex: 0xFF_55_55), background: RGB(hex: 0x1D_3B_5C), attributes: .bold)
}

/// A grid that ended with failed points, for the status line: how many failed, and the first reason
/// (the others are usually the same: a rate limit, the service down).
public struct GridFailure: Error, Equatable, LocalizedError {
    /// The failed points' errors.
    public let failures: [ApiError]
    /// How many points the grid asked for.
    public let requested: Int
    /// The grid's centre.
    public let center: LocationCoordinate2D

    public var errorDescription: String? {
        let reason = failures.first?.errorDescription ?? ""
        return "\(failures.count) of \(requested) places around \(ViewController.format(center)) failed: \(reason)"
    }
}
