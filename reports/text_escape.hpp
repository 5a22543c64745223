#pragma once
// Making arbitrary bytes (terms and messages from a failing calculus may hold anything) safe to
// put into UTF-8 text formats. Invalid UTF-8 becomes U+FFFD; control characters that a format
// cannot hold become their visible Unicode "control pictures" (U+2400 + code, e.g. U+2401 for
// 0x01), so the reader still sees that something odd was there.
#include <string>
#include <string_view>

namespace adsem::reports {

// Valid UTF-8: each byte that does not start a well-formed sequence is replaced by U+FFFD
// (overlong forms, surrogates and code points above U+10FFFF are not well-formed).
std::string valid_utf8(std::string_view text);

// valid_utf8, then control characters other than tab and newline shown as control pictures.
std::string visible_text(std::string_view text);

// For XML 1.0 element content: & < > escaped; characters XML 1.0 forbids (C0 controls other than
// tab, newline, carriage return; U+FFFE, U+FFFF) and DEL shown as control pictures (U+FFFE/F
// as U+FFFD); CR as &#13;.
std::string xml_escape_text(std::string_view text);

// For XML attribute values: as xml_escape_text, plus quotes, and tab/newline/CR as character
// references (a parser would otherwise normalise them to spaces).
std::string xml_escape_attribute(std::string_view text);

// For HTML text and attribute values (both quotes escaped). Same character rules as XML.
std::string html_escape(std::string_view text);
// html_escape'd text in a <code> element.
std::string html_code(std::string_view text);

} // namespace adsem::reports
