import Foundation

/// The results of one bench run, dataset by dataset and detector by detector, as one
/// self-contained HTML page (`html`) and the same content as JSON (`json()`).
public struct BenchReport: Sendable, Hashable, Codable {
    /// Raised when a field changes meaning, so readers of report.json can tell.
    public static let currentVersion = 1

    public var version: Int
    public var title: String
    /// When the run ended (ISO 8601), as the reader may compare runs.
    public var generated: String
    /// The command line that made it.
    public var command: String
    public var datasets: [ReportDataset]

    public init(title: String, generated: String, command: String, datasets: [ReportDataset]) {
        self.version = Self.currentVersion
        self.title = title
        self.generated = generated
        self.command = command
        self.datasets = datasets
    }

    public var html: String { BenchReportHTML(report: self).page }

    public func json() throws(FallDetectError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        do { return try encoder.encode(self) } catch {
            // Only a non-finite number can fail here; JSON has no way to write it.
            throw FallDetectError(.invalidArgument, "the report holds a figure JSON cannot write: \(error)")
        }
    }

    public static func decode(_ data: Data, path: String? = nil) throws(FallDetectError) -> BenchReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(BenchReport.self, from: data) } catch {
            throw FallDetectError(.malformedRow, "not a bench report: \(error)", path: path)
        }
    }

    /// Creates `directory` (and its parents) and writes index.html and report.json into it.
    public func write(to directory: String) throws(FallDetectError) {
        let json = try json()
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw FallDetectError(.io, "cannot create the report folder: \(error.localizedDescription)", path: directory)
        }
        let folder = URL(fileURLWithPath: directory)
        for (name, data) in [("index.html", Data(html.utf8)), ("report.json", json)] {
            let url = folder.appendingPathComponent(name)
            do { try data.write(to: url, options: .atomic) } catch {
                throw FallDetectError(.io, "cannot write: \(error.localizedDescription)", path: url.path)
            }
        }
    }
}
