#include "ui/views/opencl_highlighter.hpp"

#include <QApplication>
#include <QPalette>

namespace hs::ui {

namespace {

enum BlockState { kOutsideComment = 0, kInsideComment = 1 };

QRegularExpression words(const QString& alternatives) {
    return QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(alternatives));
}

QTextCharFormat makeFormat(const QColor& color, bool bold = false, bool italic = false) {
    QTextCharFormat format;
    format.setForeground(color);
    if (bold) format.setFontWeight(QFont::Bold);
    format.setFontItalic(italic);
    return format;
}

}  // namespace

OpenClHighlighter::OpenClHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    // Two colour sets, picked by the lightness of the application's base colour, keep contrast on both
    // themes.
    const bool dark = QApplication::palette().color(QPalette::Base).lightness() < 128;
    formats_ = {
        makeFormat(dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x8b, 0x00, 0x8b), true),         // Keyword
        makeFormat(dark ? QColor(0x56, 0xb6, 0xc2) : QColor(0x00, 0x6e, 0x8a)),               // Type
        makeFormat(dark ? QColor(0xe0, 0x6c, 0x75) : QColor(0xb0, 0x26, 0x26), true),         // Qualifier
        makeFormat(dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x1a, 0x4f, 0xb5)),               // Builtin
        makeFormat(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x9a, 0x5b, 0x00)),               // Preprocessor
        makeFormat(dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x6a, 0x73, 0x7d), false, true),  // Comment
        makeFormat(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x1c, 0x7c, 0x3c)),               // Number
    };
    const QString scalars = QStringLiteral("char|uchar|short|ushort|int|uint|long|ulong|float|double|half");
    rules_ = {
        {words(QStringLiteral(
             "if|else|for|while|do|return|break|continue|switch|case|default|goto|struct|union|"
             "enum|typedef|sizeof|const|volatile|restrict|inline|static|extern|true|false")),
         Role::Keyword},
        {words(
             QStringLiteral("void|bool|unsigned|signed|size_t|ptrdiff_t|intptr_t|uintptr_t|image1d_t|"
                            "image2d_t|image3d_t|image1d_array_t|image2d_array_t|image1d_buffer_t|sampler_t|"
                            "event_t|") +
             scalars),
         Role::Type},
        // Vector types: a scalar name followed by 2, 3, 4, 8 or 16 components.
        {QRegularExpression(QStringLiteral("\\b(?:%1)(?:2|3|4|8|16)\\b").arg(scalars)), Role::Type},
        {words(QStringLiteral("__kernel|kernel|__global|global|__local|local|__constant|constant|__private|"
                              "private|__generic|generic|__read_only|read_only|__write_only|write_only|"
                              "__read_write|read_write|__attribute__|reqd_work_group_size|"
                              "work_group_size_hint|vec_type_hint")),
         Role::Qualifier},
        {words(QStringLiteral("get_global_id|get_local_id|get_group_id|get_global_size|get_local_size|"
                              "get_num_groups|get_work_dim|get_global_offset|get_enqueued_local_size|"
                              "barrier|mem_fence|read_mem_fence|write_mem_fence|work_group_barrier|"
                              "atomic_\\w+|atom_\\w+|atomic_inc|atomic_add|read_image\\w+|write_image\\w+|"
                              "get_image_\\w+|vload\\w*|vstore\\w*|convert_\\w+|as_\\w+|min|max|clamp|mix|"
                              "step|smoothstep|mad|mad24|mul24|mad_sat|add_sat|sub_sat|abs|select|dot|cross|"
                              "length|normalize|sqrt|rsqrt|native_\\w+|half_\\w+|floor|ceil|round|fabs|fmin|"
                              "fmax|fma|pow|exp|log|sin|cos|printf|async_work_group_copy|wait_group_events|"
                              "CLK_\\w+")),
         Role::Builtin},
        // Decimal, hexadecimal and floating-point literals with their suffixes.
        {QRegularExpression(QStringLiteral("\\b(?:0[xX][0-9a-fA-F]+[uUlL]*|(?:\\d+\\.?\\d*|\\.\\d+)"
                                           "(?:[eE][+-]?\\d+)?[uUlLfFhH]*)\\b")),
         Role::Number},
        {QRegularExpression(QStringLiteral("^\\s*#.*")), Role::Preprocessor},
    };
}

QTextCharFormat OpenClHighlighter::format(Role role) const {
    return formats_[static_cast<std::size_t>(role)];
}

void OpenClHighlighter::highlightBlock(const QString& text) {
    // Later rules win: a preprocessor line colours over its words.
    for (const Rule& rule : rules_) {
        for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
            const auto match = it.next();
            setFormat(static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()),
                      format(rule.role));
        }
    }

    // Comments colour over everything. Scanning left to right decides which of "//" and "/*" opens first; a
    // block comment may span lines, so the block state carries "inside a comment" to the next line.
    const QTextCharFormat comment = format(Role::Comment);
    const auto markComment = [&](qsizetype from, qsizetype to) {
        setFormat(static_cast<int>(from), static_cast<int>(to - from), comment);
    };
    qsizetype position = 0;
    qsizetype commentStart = previousBlockState() == kInsideComment ? 0 : -1;
    while (true) {
        if (commentStart >= 0) {
            const qsizetype close = text.indexOf(QStringLiteral("*/"), position);
            if (close < 0) {
                markComment(commentStart, text.size());
                setCurrentBlockState(kInsideComment);
                return;
            }
            markComment(commentStart, close + 2);
            position = close + 2;
            commentStart = -1;
            continue;
        }
        const qsizetype lineComment = text.indexOf(QStringLiteral("//"), position);
        const qsizetype blockComment = text.indexOf(QStringLiteral("/*"), position);
        if (blockComment >= 0 && (lineComment < 0 || blockComment < lineComment)) {
            commentStart = blockComment;
            position = blockComment + 2;
            continue;
        }
        if (lineComment >= 0) markComment(lineComment, text.size());
        break;
    }
    setCurrentBlockState(kOutsideComment);
}

}  // namespace hs::ui
