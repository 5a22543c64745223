#include "reports/text_escape.hpp"

#include <cstdint>

namespace adsem::reports {
namespace {

constexpr char32_t replacement_character = 0xFFFD;

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes one code point at text[i], advancing i; an ill-formed byte decodes as U+FFFD and
// advances by one, so decoding always makes progress.
char32_t decode_one(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  int length = 0;
  char32_t cp = 0;
  std::uint8_t second_min = 0x80, second_max = 0xBF; // rules out overlongs and surrogates
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) second_min = 0xA0;
    if (lead == 0xED) second_max = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) second_min = 0x90;
    if (lead == 0xF4) second_max = 0x8F;
  } else {
    ++i;
    return replacement_character;
  }
  if (i + length > text.size()) {
    ++i;
    return replacement_character;
  }
  for (int k = 1; k < length; ++k) {
    const std::uint8_t b = byte(i + k);
    const std::uint8_t low = k == 1 ? second_min : 0x80;
    const std::uint8_t high = k == 1 ? second_max : 0xBF;
    if (b < low || b > high) {
      ++i;
      return replacement_character;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  i += length;
  return cp;
}

template <class Emit> std::string transcode(std::string_view text, Emit emit) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();)
    emit(out, decode_one(text, i));
  return out;
}

bool is_c0_control(char32_t cp) {
  return cp < 0x20;
}

// A control picture for a C0 control (U+2400 + code) or DEL (U+2421).
char32_t control_picture(char32_t cp) {
  return cp == 0x7F ? 0x2421 : 0x2400 + cp;
}

// XML 1.0 Char production: tab, LF, CR, and U+0020.. except U+FFFE/U+FFFF (surrogates cannot
// come out of decode_one).
bool allowed_in_xml(char32_t cp) {
  if (is_c0_control(cp)) return cp == '\t' || cp == '\n' || cp == '\r';
  return cp != 0xFFFE && cp != 0xFFFF;
}

// Shared by the XML and HTML escapers: markup characters as entities, forbidden characters as
// control pictures (U+FFFE/U+FFFF as U+FFFD).
void append_markup(std::string& out, char32_t cp, bool attribute) {
  switch (cp) {
  case '&':
    out += "&amp;";
    return;
  case '<':
    out += "&lt;";
    return;
  case '>':
    out += "&gt;";
    return;
  case '\r':
    out += "&#13;";
    return;
  default:
    break;
  }
  if (attribute) {
    switch (cp) {
    case '"':
      out += "&quot;";
      return;
    case '\'':
      out += "&apos;";
      return;
    case '\t':
      out += "&#9;";
      return;
    case '\n':
      out += "&#10;";
      return;
    default:
      break;
    }
  }
  if (cp == 0x7F) // allowed in XML 1.0 but invisible, and an HTML parse error
    append_utf8(out, control_picture(cp));
  else if (!allowed_in_xml(cp))
    append_utf8(out, is_c0_control(cp) ? control_picture(cp) : replacement_character);
  else
    append_utf8(out, cp);
}

} // namespace

std::string valid_utf8(std::string_view text) {
  return transcode(text, [](std::string& out, char32_t cp) { append_utf8(out, cp); });
}

std::string visible_text(std::string_view text) {
  return transcode(text, [](std::string& out, char32_t cp) {
    const bool control = (is_c0_control(cp) && cp != '\t' && cp != '\n') || cp == 0x7F;
    append_utf8(out, control ? control_picture(cp) : cp);
  });
}

std::string xml_escape_text(std::string_view text) {
  return transcode(text, [](std::string& out, char32_t cp) { append_markup(out, cp, false); });
}

std::string xml_escape_attribute(std::string_view text) {
  return transcode(text, [](std::string& out, char32_t cp) { append_markup(out, cp, true); });
}

std::string html_escape(std::string_view text) {
  return transcode(text, [](std::string& out, char32_t cp) {
    if (cp == '"')
      out += "&quot;";
    else if (cp == '\'')
      out += "&#39;";
    else
      append_markup(out, cp, false);
  });
}

std::string html_code(std::string_view text) {
  return "<code>" + html_escape(text) + "</code>";
}

} // namespace adsem::reports
