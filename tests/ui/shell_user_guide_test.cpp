// Help ▸ User Guide: F1 opens it; every document it embeds is the file of the source tree (its first heading
// as on disk); a link to another document of the guide shows that document; the search field finds a word
// and then the next occurrence, from the top again after the last.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest/QtTest>

#include "ui/shell/main_window.hpp"
#include "ui/shell/user_guide.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

// The first heading of a Markdown file in the source tree, with its inline code marks dropped as Markdown
// renders them: "# Sessions: the `.histoscope` file" is "Sessions: the .histoscope file".
QString firstHeadingOnDisk(const QString& relativePath) {
    QFile file(QStringLiteral(HISTOSCOPE_SOURCE_DIR "/") + relativePath);
    if (!file.open(QIODevice::ReadOnly)) return {};
    static const QRegularExpression heading(QStringLiteral("^#+\\s+(.*)$"));
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        const auto match = heading.match(line.trimmed());
        if (match.hasMatch()) return match.captured(1).remove(QLatin1Char('`')).trimmed();
    }
    return {};
}

QString firstHeadingShown(const QTextBrowser& browser) {
    for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0) return block.text();
    return {};
}

// Where in the shown document a link to `href` starts; -1 when there is none.
int linkPosition(const QTextBrowser& browser, const QString& href) {
    for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment)
            if (fragment.fragment().charFormat().anchorHref() == href) return fragment.fragment().position();
    return -1;
}

}  // namespace

class UserGuideTest : public QObject {
    Q_OBJECT

  private slots:
    void f1OpensTheGuide() {
        test::PrivateWindow app;
        app.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&app.window));
        app.window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&app.window));
        QVERIFY(!app.window.findChild<UserGuide*>());
        QTest::keyClick(&app.window, Qt::Key_F1);
        auto* guide = app.window.findChild<UserGuide*>();
        QVERIFY(guide);
        QVERIFY(QTest::qWaitForWindowExposed(guide));
        QCOMPARE(guide->currentDocument(), QStringLiteral(":/user-guide/README.md"));
        QCOMPARE(firstHeadingShown(*guide->browser()), firstHeadingOnDisk(QStringLiteral("README.md")));
        // The menu's entry is the same action, and a second F1 raises the same window.
        const auto actions = app.window.findChildren<QAction*>();
        const auto entry = std::find_if(actions.begin(), actions.end(), [](const QAction* action) {
            return action->text() == QStringLiteral("&User Guide");
        });
        QVERIFY(entry != actions.end());
        QCOMPARE((*entry)->shortcut(), QKeySequence(Qt::Key_F1));
        guide->hide();
        (*entry)->trigger();
        QVERIFY(guide->isVisible());
        QCOMPARE(app.window.findChildren<UserGuide*>().size(), 1);
        QVERIFY(guide->grab().save(test::artifactPath(QStringLiteral("shell_user_guide.png"))));
    }

    // The guide embeds the files themselves: each document shown opens with its file's first heading, and
    // the contents name it so.
    void everyDocumentIsTheFileOnDisk() {
        UserGuide guide;
        const QStringList documents = UserGuide::documents();
        QCOMPARE(documents, QStringList({":/user-guide/README.md", ":/user-guide/docs/kernel-lab.md",
                                         ":/user-guide/docs/scopes.md", ":/user-guide/docs/sessions.md"}));
        QCOMPARE(guide.contents()->count(), documents.size());
        for (int row = 0; row < documents.size(); ++row) {
            guide.contents()->setCurrentRow(row);
            QCOMPARE(guide.currentDocument(), documents[row]);
            const QString onDisk =
                firstHeadingOnDisk(documents[row].mid(QStringLiteral(":/user-guide/").size()));
            QVERIFY2(!onDisk.isEmpty(), qPrintable(documents[row]));
            QCOMPARE(firstHeadingShown(*guide.browser()), onDisk);
            QCOMPARE(guide.contents()->item(row)->text(), onDisk);
        }
    }

    // README links to docs/kernel-lab.md: clicking the link shows the kernel lab's guide and selects it in
    // the contents.
    void aLinkShowsTheLinkedDocument() {
        UserGuide guide;
        QVERIFY(test::showExposed(guide, {1000, 700}));
        QTextBrowser& browser = *guide.browser();
        const int position = linkPosition(browser, QStringLiteral("docs/kernel-lab.md"));
        QVERIFY(position >= 0);
        QTextCursor cursor(browser.document());
        cursor.setPosition(position + 1);
        browser.setTextCursor(cursor);
        browser.ensureCursorVisible();
        QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, browser.cursorRect(cursor).center());
        QTRY_COMPARE(guide.currentDocument(), QStringLiteral(":/user-guide/docs/kernel-lab.md"));
        QCOMPARE(firstHeadingShown(browser), firstHeadingOnDisk(QStringLiteral("docs/kernel-lab.md")));
        QCOMPARE(guide.contents()->currentRow(), 1);
    }

    // Enter in the search field selects each occurrence in turn, then the first again; a word the document
    // lacks is said so.
    void searchFindsEachOccurrence() {
        UserGuide guide;
        guide.showDocument(QStringLiteral(":/user-guide/docs/sessions.md"));
        const QString word = QStringLiteral("session");
        const int occurrences =
            static_cast<int>(guide.browser()->toPlainText().count(word, Qt::CaseInsensitive));
        QVERIFY(occurrences >= 2);
        guide.searchField()->setText(word);
        int previous = -1;
        int first = -1;
        for (int i = 0; i < occurrences; ++i) {
            QTest::keyClick(guide.searchField(), Qt::Key_Return);
            const QTextCursor found = guide.browser()->textCursor();
            QCOMPARE(found.selectedText().toLower(), word);
            QVERIFY(found.selectionStart() > previous);
            previous = found.selectionStart();
            if (i == 0) first = previous;
        }
        QVERIFY(guide.findNext());
        QCOMPARE(guide.browser()->textCursor().selectionStart(), first);
        QVERIFY(guide.status()->text().isEmpty());

        guide.searchField()->setText(QStringLiteral("xylophone"));
        QVERIFY(!guide.findNext());
        QVERIFY(guide.status()->text().contains(QStringLiteral("xylophone")));
    }
};

QTEST_MAIN(UserGuideTest)
#include "shell_user_guide_test.moc"
