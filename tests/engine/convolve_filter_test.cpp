#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"
#include "expect_error.hpp"

namespace hs::convolve {
namespace {

using test::messageOf;

std::string usageProblem(std::string_view text) {
    return messageOf<UsageError>([&] { parseFilterText(text); });
}

TEST(ConvolveFilter, BuiltInFilters) {
    const auto box = boxFilter(5);
    EXPECT_EQ(box.width, 5);
    EXPECT_EQ(box.divisor, 25.0);
    EXPECT_EQ(box.taps, std::vector<double>(25, 1.0));
    EXPECT_TRUE(box.isInteger());
    EXPECT_THROW(boxFilter(0), UsageError);
    EXPECT_THROW(boxFilter(16), UsageError);

    EXPECT_EQ(sharpenFilter().taps, (std::vector<double>{0, -1, 0, -1, 5, -1, 0, -1, 0}));
    EXPECT_TRUE(sobelFilter().isMagnitude());
    EXPECT_TRUE(sobelFilter().isInteger());
    EXPECT_FALSE(laplacianFilter().isMagnitude());
}

TEST(ConvolveFilter, GaussianByHand) {
    const auto gaussian = gaussianFilter(1.0);
    ASSERT_EQ(gaussian.width, 7) << "size 2 * ceil(3 sigma) + 1";
    ASSERT_EQ(gaussian.height, 7);
    EXPECT_FALSE(gaussian.isInteger());
    EXPECT_NEAR(std::accumulate(gaussian.taps.begin(), gaussian.taps.end(), 0.0), 1.0, 1e-12);
    const auto tap = [&](int i, int j) { return gaussian.taps[static_cast<std::size_t>(j * 7 + i)]; };
    // One step from the centre along an axis: exp(-1 / 2); along the diagonal: exp(-1).
    EXPECT_NEAR(tap(4, 3) / tap(3, 3), std::exp(-0.5), 1e-12);
    EXPECT_NEAR(tap(4, 4) / tap(3, 3), std::exp(-1.0), 1e-12);
    EXPECT_DOUBLE_EQ(tap(0, 2), tap(2, 0));
    EXPECT_EQ(gaussianFilter(3.0).width, 15) << "capped at 15";
    EXPECT_EQ(gaussianFilter(2.0, 5).width, 5);
    EXPECT_THROW(gaussianFilter(1.0, 4), UsageError);
    EXPECT_THROW(gaussianFilter(0.0), UsageError);
    EXPECT_THROW(gaussianFilter(-1.0), UsageError);
}

TEST(ConvolveFilter, ParsesTheDocumentedTextFormat) {
    const auto filter = parseFilterText("# 3x3 Gaussian\n1 2 1\n2, 4, 2   # commas too\n\n1\t2 1\n/ 16\n");
    EXPECT_EQ(filter.width, 3);
    EXPECT_EQ(filter.height, 3);
    EXPECT_EQ(filter.taps, (std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
    EXPECT_EQ(filter.divisor, 16.0);
    EXPECT_TRUE(filter.isInteger());

    const auto wide = parseFilterText("0.25 0.5 -0.25e0 1");
    EXPECT_EQ(wide.width, 4);
    EXPECT_EQ(wide.height, 1);
    EXPECT_EQ(wide.divisor, 1.0);
    EXPECT_FALSE(wide.isInteger());
    EXPECT_FALSE(parseFilterText("1 1\n/2.5").isInteger());
    EXPECT_EQ(parseFilterText("1 1\n/2").divisor, 2.0);
}

TEST(ConvolveFilter, TextErrorsNameTheProblem) {
    EXPECT_NE(usageProblem("").find("no filter rows"), std::string::npos);
    EXPECT_NE(usageProblem("# only a comment\n").find("no filter rows"), std::string::npos);
    const auto ragged = usageProblem("1 2 3\n4 5\n");
    EXPECT_NE(ragged.find("custom filter: line 2: 2 numbers, but the first row has 3"), std::string::npos)
        << ragged;
    const auto word = usageProblem("1 2\n3 abc\n");
    EXPECT_NE(word.find("line 2: 'abc' is not a number"), std::string::npos) << word;
    EXPECT_NE(usageProblem("1 nan").find("'nan' is not a number"), std::string::npos);
    EXPECT_NE(usageProblem("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16").find("more than 15 columns"),
              std::string::npos);
    std::string tall;
    for (int row = 0; row < 16; ++row) tall += "1\n";
    const auto tallProblem = usageProblem(tall);
    EXPECT_NE(tallProblem.find("line 16: more than 15 rows"), std::string::npos) << tallProblem;
    EXPECT_NE(usageProblem("1 1\n/ 0").find("must not be zero"), std::string::npos);
    EXPECT_NE(usageProblem("/ 4\n1 1").find("after the rows"), std::string::npos);
    EXPECT_NE(usageProblem("1 1\n/ 4\n1 1").find("line 3: nothing may follow the divisor"),
              std::string::npos);
    EXPECT_NE(usageProblem("1 1\n/ 4 5").find("one number after '/'"), std::string::npos);
}

TEST(ConvolveFilter, FileTextErrorsNameTheFile) {
    const auto filter = parseFilterFile("-1 0 1\n-2 0 2\n-1 0 1\n", "filters/edge.txt");
    EXPECT_EQ(filter.taps, (std::vector<double>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    EXPECT_EQ(filter.label, "custom 3x3 (edge.txt)");
    EXPECT_EQ(messageOf<InputError>([] { parseFilterFile("1 2\n3 x\n", "bad.txt"); }),
              "bad.txt: line 2: 'x' is not a number");
    EXPECT_EQ(messageOf<InputError>([] { parseFilterFile(std::string("\x89PNG\0\0", 6), "b.png"); }),
              "b.png: not a text file");
}

Filter fromSpec(std::string_view spec) {
    const auto filter = namedFilterFromSpec(spec);
    if (!filter) ADD_FAILURE() << spec << " names no filter kind";
    return filter.value_or(Filter{});
}

TEST(ConvolveFilter, SpecsNameFilterKinds) {
    EXPECT_EQ(fromSpec("box").width, 3);
    EXPECT_EQ(fromSpec("box:5").divisor, 25.0);
    const auto gaussian = fromSpec("gaussian:1.5:7");
    EXPECT_EQ(gaussian.width, 7);
    EXPECT_EQ(gaussian.taps, gaussianFilter(1.5, 7).taps);
    EXPECT_EQ(fromSpec("gaussian:1.5").taps, gaussianFilter(1.5).taps);
    EXPECT_TRUE(fromSpec("sobel").isMagnitude());
    EXPECT_EQ(fromSpec("sharpen").taps, sharpenFilter().taps);
    EXPECT_EQ(fromSpec("emboss").taps, embossFilter().taps);
    EXPECT_EQ(fromSpec("laplacian").taps, laplacianFilter().taps);

    EXPECT_NE(messageOf<UsageError>([] { namedFilterFromSpec("box:x"); }).find("'x' is not a whole number"),
              std::string::npos);
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("box:3:3"); }),
              "filter 'box:3:3': expected box or box:N");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("gaussian"); }),
              "filter 'gaussian': expected gaussian:SIGMA or gaussian:SIGMA:SIZE");
    EXPECT_THROW(namedFilterFromSpec("gaussian:-2"), UsageError);
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("sharpen:2"); }),
              "filter 'sharpen:2': expected sharpen without parameters");
    // Anything else is left to the caller, who reads it as a filter file.
    EXPECT_FALSE(namedFilterFromSpec("blur"));
    EXPECT_FALSE(namedFilterFromSpec("filters/edge.txt"));
}

TEST(ConvolveFilter, UnknownSpecsAreUsageErrorsOrMissingFiles) {
    // A bare word that names no filter and no file is a mistyped name: a usage error listing the filters.
    const auto unknown = messageOf<UsageError>([] { throwUnknownFilterSpec("blur"); });
    EXPECT_NE(unknown.find("unknown filter 'blur'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("gaussian:SIGMA"), std::string::npos) << unknown;
    // A spec that looks like a path names a missing file: an input error naming it.
    const auto missing = messageOf<InputError>([] { throwUnknownFilterSpec("no-such-dir/edges.txt"); });
    EXPECT_NE(missing.find("no-such-dir/edges.txt: no such filter file"), std::string::npos) << missing;
    EXPECT_NE(missing.find("sobel"), std::string::npos) << missing;
}

TEST(ConvolveFilter, UnsharpIsOneCorrelationOfIdentityMinusGaussian) {
    const Filter filter = fromSpec("unsharp:1.5:2");
    const Filter blur = gaussianFilter(2.0);
    ASSERT_EQ(filter.width, blur.width);
    ASSERT_EQ(filter.height, blur.height);
    EXPECT_EQ(filter.label, "unsharp amount 1.5, sigma 2 13x13");
    EXPECT_FALSE(filter.isMagnitude());
    EXPECT_EQ(filter.divisor, 1.0);
    const std::size_t centre = filter.taps.size() / 2;
    for (std::size_t i = 0; i < filter.taps.size(); ++i)
        EXPECT_DOUBLE_EQ(filter.taps[i], (i == centre ? 2.5 : 0.0) - 1.5 * blur.taps[i]) << i;
    // The taps sum to 1: flat areas keep their value.
    EXPECT_NEAR(std::accumulate(filter.taps.begin(), filter.taps.end(), 0.0), 1.0, 1e-12);
    // identity minus a Gaussian has rank 2: the separable strategy declines it.
    EXPECT_FALSE(separate(filter));
    // Defaults: amount 1, sigma 1.
    EXPECT_EQ(fromSpec("unsharp").taps, fromSpec("unsharp:1:1").taps);
    EXPECT_EQ(fromSpec("unsharp:2").taps, fromSpec("unsharp:2:1").taps);
    // Amount 0 is the identity.
    const Filter none = fromSpec("unsharp:0");
    for (std::size_t i = 0; i < none.taps.size(); ++i)
        EXPECT_DOUBLE_EQ(none.taps[i], i == none.taps.size() / 2 ? 1.0 : 0.0);
}

TEST(ConvolveFilter, UnsharpSpecErrorsSayWhatIsWrong) {
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:6"); }),
              "unsharp amount must be within 0..5, got 6");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:-1"); }),
              "unsharp amount must be within 0..5, got -1");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:1:0"); }),
              "unsharp sigma must be a positive number of at most 15, got 0");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:1:16"); }),
              "unsharp sigma must be a positive number of at most 15, got 16");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:x"); }),
              "filter 'unsharp:x': 'x' is not a number");
    EXPECT_EQ(messageOf<UsageError>([] { namedFilterFromSpec("unsharp:1:2:3"); }),
              "filter 'unsharp:1:2:3': expected unsharp, unsharp:AMOUNT or unsharp:AMOUNT:SIGMA");
}

TEST(ConvolveFilter, TheHelpListsEveryRegisteredKindInOrder) {
    EXPECT_EQ(filterSpecHelp(),
              "box[:N], gaussian:SIGMA[:SIZE], unsharp[:AMOUNT[:SIGMA]], sharpen, emboss, laplacian, sobel, "
              "or a filter file");
    std::vector<std::string> names;
    for (const auto* kind : filterKinds()) names.push_back(kind->name);
    EXPECT_EQ(names, (std::vector<std::string>{"box", "gaussian", "unsharp", "sharpen", "emboss", "laplacian",
                                               "sobel"}));
    // Every kind builds a valid filter from its defaults, and its parameters' defaults lie in their ranges.
    for (const auto* kind : filterKinds()) {
        SCOPED_TRACE(kind->name);
        EXPECT_NO_THROW(validate(kind->make(kind->defaults())));
        for (const auto& parameter : kind->parameters) {
            EXPECT_LE(parameter.min, parameter.defaultValue);
            EXPECT_LE(parameter.defaultValue, parameter.max);
            // The range the GUI offers builds filters at both ends (the automatic value included).
            std::vector<double> values = kind->defaults();
            for (const double end : {parameter.min, parameter.max}) {
                values[static_cast<std::size_t>(&parameter - kind->parameters.data())] = end;
                EXPECT_NO_THROW(validate(kind->make(values))) << parameter.name << " = " << end;
            }
        }
    }
}

void expectReconstructs(const Filter& filter, const Separation& separation) {
    ASSERT_EQ(separation.row.size(), static_cast<std::size_t>(filter.width));
    ASSERT_EQ(separation.column.size(), static_cast<std::size_t>(filter.height));
    for (int j = 0; j < filter.height; ++j) {
        for (int i = 0; i < filter.width; ++i) {
            EXPECT_NEAR(
                separation.column[static_cast<std::size_t>(j)] * separation.row[static_cast<std::size_t>(i)],
                filter.taps[static_cast<std::size_t>(j * filter.width + i)], 1e-12);
        }
    }
}

TEST(ConvolveFilter, RankOneFiltersSeparate) {
    const auto box = separate(boxFilter(4));
    ASSERT_TRUE(box);
    EXPECT_EQ(box->row, std::vector<double>(4, 1.0));
    EXPECT_EQ(box->column, std::vector<double>(4, 1.0));

    // Sobel's x derivative is (1 2 1) down times (-1 0 1) across; the integer factors come out coprime.
    const auto sobelX = parseFilterText("-1 0 1\n-2 0 2\n-1 0 1");
    const auto split = separate(sobelX);
    ASSERT_TRUE(split);
    expectReconstructs(sobelX, *split);
    EXPECT_EQ(std::abs(split->row[0]), 1.0);
    EXPECT_EQ(std::abs(split->column[1]), 2.0);

    const auto gaussian = gaussianFilter(1.2, 5);
    const auto gaussianSplit = separate(gaussian);
    ASSERT_TRUE(gaussianSplit);
    expectReconstructs(gaussian, *gaussianSplit);

    const auto line = parseFilterText("1 -3 2 5");
    ASSERT_TRUE(separate(line));
    expectReconstructs(line, *separate(line));
    ASSERT_TRUE(separate(parseFilterText("0 0\n0 0")));

    EXPECT_FALSE(separate(sharpenFilter()));
    EXPECT_FALSE(separate(embossFilter()));
    EXPECT_FALSE(separate(laplacianFilter()));
    EXPECT_FALSE(separate(sobelFilter())) << "a magnitude is not one correlation";
    EXPECT_FALSE(separate(parseFilterText("1 2\n2 3"))) << "rank 2 with an integer near miss";
    EXPECT_FALSE(separate(parseFilterText("1 2\n2 4.000001")));
}

TEST(ConvolveFilter, ValidationRejectsMalformedFilters) {
    Filter filter = boxFilter(3);
    filter.taps.pop_back();
    EXPECT_THROW(validate(filter), UsageError);
    filter = boxFilter(3);
    filter.divisor = 0;
    EXPECT_THROW(validate(filter), UsageError);
    filter = sobelFilter();
    filter.divisor = 2;
    EXPECT_THROW(validate(filter), UsageError);
    filter = boxFilter(3);
    filter.taps[4] = INFINITY;
    EXPECT_THROW(validate(filter), UsageError);
    EXPECT_NO_THROW(validate(gaussianFilter(2.0)));
}

}  // namespace
}  // namespace hs::convolve
