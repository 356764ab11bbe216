// Package wire is what goes between a fetcher and the network, as it goes
// over the wire: the forward proxy Chromium connects through (every
// connection made by the caller's dialer, the target guard; responses
// bounded; the start of HTML documents kept), and the recording of HTTP
// exchanges as they were exchanged (request as written, response head in
// the server's order and case, payload as served, the address connected
// to), through that proxy (HTTPS too, by ending the browser's TLS with a
// certificate only that browser accepts) or through a plain client's
// transport (Recorder.Transport). Package browser renders and fetches
// pages with it.
//
// # Recording the exchanges (WARC)
//
// With Options.Record (HTTPFetcher.Record for plain fetches) a Page also
// carries its HTTP exchanges as they went over the wire (Page.Exchanges):
// each request as sent and each response's status line, headers (in the
// server's order and case) and body bytes as the server sent them (a
// windows-1252 page stays windows-1252, a gzip body stays gzip), with the
// address connected to. The renderer
// records in its proxy, which it starts for recording when Options.Dial
// did not; HTTPS is recorded by ending the browser's TLS in the proxy
// (see RecordOptions). Recording is bounded per response, per page and
// per renderer; cookie and authorization values are withheld unless
// asked. Package export writes the exchanges as WARC records and WACZ
// packages.
package wire
