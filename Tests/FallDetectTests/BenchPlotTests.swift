import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@testable import FallDetect

@Suite struct BenchPlotTests {
    /// Collects element names and attributes as the SVG parses.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]
        ) {
            elements.append((name, attributes))
        }
    }

    static func parse(_ svg: String) throws -> Collector {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        return collector
    }

    @Test func everyCurveOperatingPointBarAndPublishedPointIsDrawn() throws {
        var adl = ConfusionCounts(), fall = ConfusionCounts()
        adl.add(isFall: false, flagged: true)
        adl.add(isFall: false, flagged: false)
        fall.add(isFall: true, flagged: true)
        let sweep = (0...10).map { OperatingPoint(threshold: Float($0), sensitivity: 1 - Double($0) / 40, specificity: 0.7 + Double($0) / 40, falseAlarmsPerHour: 1) }
        let curves = [
            BenchPlot.Curve(name: "a<b>", points: sweep, operatingPoint: sweep[5], perActivity: ["D01": adl, "F01": fall]),
            BenchPlot.Curve(name: "second", points: sweep, operatingPoint: nil, perActivity: ["D01": adl]),
        ]
        let svg = BenchPlot(title: "T & U", curves: curves).svg
        let found = try Self.parse(svg)
        let polylines = found.elements.filter { $0.name == "polyline" }
        #expect(polylines.map { $0.attributes["data-detector"] } == ["a<b>", "second"])
        #expect(polylines.allSatisfy { ($0.attributes["points"] ?? "").split(separator: " ").count == sweep.count })
        #expect(found.elements.filter { $0.attributes["class"] == "operating-point" }.count == 1)
        let bars = found.elements.filter { $0.attributes["class"] == "bar" }
        #expect(bars.count == 3)
        // A bar's height is its share of the panel: D01 half its trials, F01 all of them.
        let heights = Dictionary(grouping: bars) { $0.attributes["data-code"] ?? "" }.mapValues { $0.compactMap { Double($0.attributes["height"] ?? "") } }
        #expect(heights["D01"] == [150, 150])
        #expect(heights["F01"] == [300])
        #expect(found.elements.filter { $0.attributes["class"] == "published" }.count == BenchPlot.publishedPoints.count)
        #expect(svg.contains("T &amp; U"))
    }

    @Test func pointsOutsideTheFrameAreClippedToIt() throws {
        let far = [OperatingPoint(threshold: 0, sensitivity: 0.1, specificity: 0.1, falseAlarmsPerHour: 0)]
        let found = try Self.parse(BenchPlot(title: "", curves: [.init(name: "x", points: far, operatingPoint: far[0], perActivity: [:])]).svg)
        let circle = try #require(found.elements.first { $0.name == "circle" })
        // The frame is x 80…620, y 60…420.
        #expect(Double(circle.attributes["cx"] ?? "") == 620)
        #expect(Double(circle.attributes["cy"] ?? "") == 420)
        // The curve itself is not drawn outside the frame.
        let line = try #require(found.elements.first { $0.name == "polyline" })
        #expect(line.attributes["points"] == "")
    }
}
